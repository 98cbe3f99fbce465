// Runs the check under Node.js: `node run.mjs wasi FILE.wasm` (Node's WASI,
// preview 1) or `node run.mjs bindgen DIR` (wasm-bindgen's nodejs output).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { WASI } from 'node:wasi';

const [mode, path] = process.argv.slice(2);
if (mode === 'wasi') {
  const wasi = new WASI({ version: 'preview1', args: ['check'], env: {}, returnOnExit: true });
  const module = await WebAssembly.compile(await readFile(path));
  const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
  process.exitCode = wasi.start(instance);
} else if (mode === 'bindgen') {
  const check = createRequire(import.meta.url)(`${path}/kuuid_wasm_check.js`);
  console.log(check.run());
} else {
  console.error('usage: node run.mjs wasi FILE.wasm | bindgen DIR');
  process.exitCode = 2;
}
