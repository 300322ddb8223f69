// Writes several files so that either every one changes or none does: the import changes
// the tables together, and a half-written catalogue (French new, English old) would be
// a build that fails or, worse, one that passes with the wrong text. Each new text goes to
// a temporary file beside its target first; then each target is kept as a backup and
// replaced by a rename; a failure on the way puts the backups back.
import { copyFile, rename, unlink, writeFile } from "node:fs/promises";
import path from "node:path";

const FILE_SYSTEM = { copyFile, rename, unlink, writeFile };

/**
 * Writes `texts` (a Map: file relative to `root` → its new text). Throws, having changed
 * no file, when any step fails. `fileSystem` stands in for node:fs/promises in the tests.
 */
export async function writeAllOrNone(root, texts, fileSystem = FILE_SYSTEM) {
  const suffix = `.${process.pid}.${Date.now()}`;
  const files = [...texts.keys()].map((file) => {
    const target = path.join(root, file);
    return { file, target, temporary: `${target}${suffix}.new`, backup: `${target}${suffix}.old` };
  });
  const leftovers = new Set();
  const replaced = [];
  try {
    for (const { file, temporary } of files) {
      leftovers.add(temporary);
      await fileSystem.writeFile(temporary, texts.get(file));
    }
    for (const { target, backup } of files) {
      leftovers.add(backup);
      await fileSystem.copyFile(target, backup);
    }
    for (const entry of files) {
      await fileSystem.rename(entry.temporary, entry.target);
      leftovers.delete(entry.temporary);
      replaced.push(entry);
    }
  } catch (error) {
    const unrestored = [];
    for (const { file, target, backup } of replaced.reverse()) {
      const restored = await fileSystem.rename(backup, target).then(() => true, () => false);
      leftovers.delete(backup); // put back, or kept for whoever restores it by hand
      if (!restored) unrestored.push(`${file} (its old text is in ${backup})`);
    }
    await Promise.all([...leftovers].map((file) => fileSystem.unlink(file).catch(() => {})));
    const failed = files.find(({ target, temporary, backup }) => [target, temporary, backup].includes(error.path))?.file;
    const why = `could not write ${failed ?? "the tables"} (${error.code ?? error.message})`;
    if (unrestored.length > 0) throw new Error(`${why}, and could not put back ${unrestored.join(", ")}`, { cause: error });
    throw new Error(`${why}, so no table was changed`, { cause: error });
  }
  await Promise.all([...leftovers].map((file) => fileSystem.unlink(file).catch(() => {})));
}
