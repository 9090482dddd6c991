// gamecert-adapter for ES modules: the same kit as index.cjs (one implementation, so an
// adapter imported both ways shares one Refusal class).
import kit from './index.cjs';

export const {
  VERSION, serve, createServer, capabilities, Refusal, LoopStopped, deepCopy, sameJson, param,
  playerId, nativePlayer, rotation, nativeRotation, matchAction, seededRandom,
} = kit;
export default kit;
