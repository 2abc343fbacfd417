import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const BLOCK = 512;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function header(name: string, size: number, mode: number, mtime: number, type: '0' | '5'): Buffer {
  const block = Buffer.alloc(BLOCK);
  const put = (text: string, at: number, width: number) => block.write(text, at, width, 'utf8');
  put(name, 0, 100);
  put(octal(mode & 0o7777, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(size, 12), 124, 12);
  put(octal(Math.floor(mtime / 1000), 12), 136, 12);
  put(' '.repeat(8), 148, 8); // the checksum counts its own field as spaces
  put(type, 156, 1);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  let sum = 0;
  for (const byte of block) sum += byte;
  put(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  return block;
}

/**
 * A ustar archive of `dir`'s files and folders (names relative to it, folders
 * before their contents), the format PGlite's `loadDataDir` reads. Enough for
 * a PostgreSQL data directory: regular files and folders, names under 100 bytes.
 *
 * @throws Error on a name of 100 bytes or more, or an entry that is neither file nor folder.
 */
export function tarFolder(dir: string): Buffer {
  const parts: Buffer[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(folder, entry.name);
      const name = relative(dir, path).split(sep).join('/');
      const stat = statSync(path);
      if (Buffer.byteLength(name) >= 100) throw new Error(`tar: name too long: ${name}`);
      if (entry.isDirectory()) {
        parts.push(header(`${name}/`, 0, stat.mode, stat.mtimeMs, '5'));
        walk(path);
      } else if (entry.isFile()) {
        const data = readFileSync(path);
        parts.push(
          header(name, data.length, stat.mode, stat.mtimeMs, '0'),
          data,
          Buffer.alloc((BLOCK - (data.length % BLOCK)) % BLOCK),
        );
      } else {
        throw new Error(`tar: not a file or folder: ${name}`);
      }
    }
  };
  walk(dir);
  parts.push(Buffer.alloc(2 * BLOCK));
  return Buffer.concat(parts);
}
