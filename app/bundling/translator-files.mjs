// The translators' files of a folder, as text, for the import (translators-command.mjs): only
// what the folder itself holds, read only when it is a regular file within the size cap,
// and only when its bytes are UTF-8 text. A file that is not is refused with a line that
// says what to do, and never by echoing what it holds (a link may point anywhere).
import { constants } from "node:fs";
import { open, readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";

/** The largest file the import reads: far above any catalogue's (about 230 bytes a message in XLIFF), far below what would strain it. */
export const MAX_FILE_BYTES = 4 * 1024 * 1024;
export const TRANSLATOR_EXTENSIONS = [".po", ".xlf", ".xliff"];

/** A mistake in how the command was called (a folder that is not one): one line, exit 2. */
export class UsageError extends Error {}

/** What stops the whole folder: its path and why (a Problem of app/bundling/catalogue.ts). */
const refused = (file, text, line = 0) => ({ error: { file, line, text } });

/**
 * `dir`'s .po, .xlf and .xliff files, by name: { files: [{ file, text }], errors }. Throws a
 * UsageError when `dir` is not a folder.
 */
export async function readTranslatorFiles(dir) {
  const folder = await stat(dir).catch((error) => {
    if (error.code === "ENOENT") throw new UsageError(`${dir}: no such folder: give the folder that holds the translators' .po, .xlf or .xliff files`);
    throw error;
  });
  if (!folder.isDirectory()) throw new UsageError(`${dir}: is a file, not a folder: give the folder that holds the translators' files`);
  const names = (await readdir(dir)).filter((name) => TRANSLATOR_EXTENSIONS.includes(path.extname(name).toLowerCase())).sort();
  if (names.length === 0) return { files: [], errors: [{ file: dir, line: 0, text: "holds no .po, .xlf or .xliff file" }] };
  const inside = await realpath(dir);
  const files = [];
  const errors = [];
  for (const name of names) {
    const file = path.join(dir, name);
    const read = await readOne(inside, file);
    if (read.error) errors.push(read.error);
    else files.push({ file, text: read.text });
  }
  return { files, errors };
}

async function readOne(inside, file) {
  const real = await realpath(file).catch(() => null);
  if (real === null) return refused(file, "is a link to nothing: put the file itself in the folder");
  const relative = path.relative(inside, real);
  if (relative.startsWith("..") || path.isAbsolute(relative)) {
    return refused(file, "is a link to a file outside the folder, which the import does not follow: copy the file itself into the folder");
  }
  // Opened without blocking, so that a FIFO is seen for what it is rather than waited on.
  const handle = await open(real, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)).catch((error) => error);
  if (handle instanceof Error) return refused(file, `cannot be opened (${handle.code ?? handle.message}): put the translator's file itself in the folder`);
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) return refused(file, "is a folder, not a file: the import reads the files of the folder it is given, not of its subfolders");
    if (!stats.isFile()) return refused(file, "is not a regular file (a FIFO, a socket or a device): put the translator's file itself in the folder");
    const tooBig = refused(file, `is over ${MAX_FILE_BYTES / 1024 / 1024} MiB, the most the import reads (docs/translations.md): is it a translator's file?`);
    if (stats.size > MAX_FILE_BYTES) return tooBig;
    const bytes = await readAtMost(handle, Math.min(stats.size, MAX_FILE_BYTES) + 1);
    if (bytes.length > stats.size) return bytes.length > MAX_FILE_BYTES ? tooBig : refused(file, "grew while it was read: import it once it is written");
    return decode(file, bytes);
  } finally {
    await handle.close();
  }
}

/** Up to `limit` bytes of the file, however big it has become since it was looked at. */
async function readAtMost(handle, limit) {
  const buffer = Buffer.alloc(limit);
  let length = 0;
  while (length < limit) {
    const { bytesRead } = await handle.read(buffer, length, limit - length, length);
    if (bytesRead === 0) break;
    length += bytesRead;
  }
  return buffer.subarray(0, length);
}

const lineAt = (bytes, offset) => {
  let line = 1;
  for (let i = bytes.indexOf(10); i >= 0 && i < offset; i = bytes.indexOf(10, i + 1)) line++;
  return line;
};

/** The file's text, or why it is not UTF-8 text, at which line. */
function decode(file, bytes) {
  const nul = bytes.indexOf(0);
  if (nul >= 0) return refused(file, "has a NUL byte, which no text holds: is it the translator's file? The export writes UTF-8 text", lineAt(bytes, nul));
  const strict = new TextDecoder("utf-8", { fatal: true });
  let text;
  try {
    text = strict.decode(bytes);
  } catch {
    // The first line that does not decode (a UTF-8 sequence never holds a newline byte).
    let start = 0;
    for (let line = 1; ; line++) {
      const end = bytes.indexOf(10, start);
      const slice = bytes.subarray(start, end < 0 ? bytes.length : end);
      try {
        strict.decode(slice);
      } catch {
        return refused(file, "is not UTF-8 (a byte no UTF-8 character has, as Latin-1 or Windows-1252 write é): save it as UTF-8, as the export writes it", line);
      }
      if (end < 0) return refused(file, "is not UTF-8 (it ends inside a character): save it as UTF-8, as the export writes it", line);
      start = end + 1;
    }
  }
  if (text.trim() === "") return refused(file, "is empty: put the translator's file back, or take it out of the folder");
  return { text };
}
