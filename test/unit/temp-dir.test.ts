import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { removeTempDirs, tempDir } from "../support/temp-dir";

describe("tempDir", () => {
  it("makes a new empty directory under the system's temp folder, with the prefix", () => {
    const a = tempDir("insika-tempdir-test-");
    const b = tempDir("insika-tempdir-test-");
    expect(a).not.toBe(b);
    expect(path.dirname(a)).toBe(os.tmpdir());
    expect(path.basename(a)).toMatch(/^insika-tempdir-test-/);
    expect(fs.readdirSync(a)).toEqual([]);
    removeTempDirs();
  });

  it("removes what it made, with its contents, and nothing else", () => {
    const made = tempDir("insika-tempdir-test-");
    fs.mkdirSync(path.join(made, "data"));
    fs.writeFileSync(path.join(made, "data", "insika.db"), "x");
    const other = fs.mkdtempSync(path.join(os.tmpdir(), "insika-tempdir-other-"));
    try {
      removeTempDirs();
      expect(fs.existsSync(made)).toBe(false);
      expect(fs.existsSync(other)).toBe(true);
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });

  it("removes them at the process's exit too, with one listener however often it is emptied", () => {
    const before = process.listenerCount("exit");
    for (let i = 0; i < 20; i += 1) {
      tempDir("insika-tempdir-test-");
      removeTempDirs();
    }
    expect(process.listenerCount("exit")).toBeLessThanOrEqual(before + 1);
    expect(process.listeners("exit")).toContain(removeTempDirs);
  });

  it("does not fail on a directory a test already removed, and forgets what it removed", () => {
    const gone = tempDir("insika-tempdir-test-");
    fs.rmSync(gone, { recursive: true });
    expect(() => removeTempDirs()).not.toThrow();
    const later = tempDir("insika-tempdir-test-");
    fs.mkdirSync(gone); // the same path, now someone else's
    try {
      removeTempDirs();
      expect(fs.existsSync(later)).toBe(false);
      expect(fs.existsSync(gone)).toBe(true);
    } finally {
      fs.rmSync(gone, { recursive: true, force: true });
    }
  });
});
