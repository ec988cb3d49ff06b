/**
 * Why a file could not be read, in words: Node's error codes (ENOENT, EISDIR) mean nothing to
 * most people, and its messages repeat the path the caller already names.
 */
const REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a folder, not a file',
  ENOTDIR: 'a part of its path is a file, not a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  ELOOP: 'its symlinks form a loop',
  ENAMETOOLONG: 'the path is too long',
  EMFILE: 'too many files are open (try again)',
};

/** Why reading (or writing) a file failed: "no such file", "it is a folder, not a file"… */
export function unreadableReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code !== undefined && REASONS[code] !== undefined) return REASONS[code];
  return code ?? (error instanceof Error ? error.message : String(error));
}
