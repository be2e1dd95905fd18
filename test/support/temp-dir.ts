/**
 * Temporary directories for tests and benches (data directories, scripts, databases), removed
 * when the test file ends (test/support/temp-dir-hook.ts) or, at the latest, when the process
 * exits, so that runs do not pile up directories in the system's temp folder.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const made = new Set<string>();
let removedAtExit = false;

/** A new empty directory under the system's temp folder, removed with `removeTempDirs`. */
export function tempDir(prefix = "insika-test-"): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.add(dir);
  if (!removedAtExit) {
    removedAtExit = true;
    process.once("exit", removeTempDirs);
  }
  return dir;
}

/** Removes every directory `tempDir` made in this process that is still there. */
export function removeTempDirs(): void {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  made.clear();
}
