export { chunkMarkdown, type ChunkOptions } from './chunk-markdown.js';
export { countTokens } from './tokens.js';
export { ChunkSettings, chunkEnv, chunkEnvAt } from './settings.js';
