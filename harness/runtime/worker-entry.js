// Worker threads start here: register tsx so the TypeScript sources load as they do in the main thread.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
