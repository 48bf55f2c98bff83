import { parentPort, workerData } from 'node:worker_threads';
import { createEmbedder } from '../embed/settings.js';
import { embeddingText } from '../index/service.js';
import { createPrepare, type PrepareOptions, type PrepareTask } from './prepare.js';

/** A parse thread: runs `prepare` (parse, chunk, hash, builtin embeddings) off the main thread. */
const options = workerData as PrepareOptions;
const prepare = createPrepare(options, options.embedInWorker ? createEmbedder(options.embedder) : null, embeddingText);

parentPort!.on('message', async (message: { id: number; task: PrepareTask }) => {
  try {
    const result = await prepare(message.task);
    const transfer = [...new Set(result.vectors?.map((v) => v.buffer as ArrayBuffer) ?? [])];
    parentPort!.postMessage({ id: message.id, result }, transfer);
  } catch (err) {
    parentPort!.postMessage({ id: message.id, error: (err as Error)?.message ?? String(err) });
  }
});
