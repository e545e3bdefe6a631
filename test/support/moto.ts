/**
 * A moto_server of a test's own (moto 5, on the PATH through the machine image's pyenv shims):
 * a real local AWS endpoint on a free port, stopped by the returned `stop`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

export const hasMoto = spawnSync('sh', ['-c', 'command -v moto_server'], { encoding: 'utf8' }).status === 0;
export const NO_MOTO = 'moto_server is not on PATH (it comes with the pyenv Python 3.11 of the machine image)';
export const MOTO_CREDENTIALS = { accessKeyId: 'testing', secretAccessKey: 'testing' };

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

export async function startMoto(): Promise<{ endpoint: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const moto = spawn('moto_server', ['-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  const stop = async (): Promise<void> => {
    if (moto.exitCode !== null || moto.signalCode !== null) return;
    const exited = new Promise((r) => moto.once('exit', r));
    moto.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${endpoint}/moto-api/`)).ok) return { endpoint, stop };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`moto_server did not answer on ${endpoint}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
