/**
 * Runs a CLI command in-process with stdout and stderr captured: usage errors are found before any
 * store, broker or network is touched, so unit tests can check them in milliseconds.
 */
import { vi } from 'vitest';

export interface Captured {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export async function captureOutput(work: () => Promise<number>): Promise<Captured> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  try {
    const code = await work();
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}
