import { randomBytes } from 'node:crypto'
import {
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs'
import { chmod, type FileHandle, mkdir, open, rename, rm } from 'node:fs/promises'
import path from 'node:path'
import type { Writable } from 'node:stream'

/** Something the start-up log should say (a tightened mode, a reclaimed server…). */
export type Notice = (message: string) => void

/**
 * A path that is not what it must be (a symbolic link where the app writes a secret, a file where it needs
 * a folder): the message names it and says what to do; printed without a stack.
 */
export class UnsafePathError extends Error {
  override name = 'UnsafePathError'
}

const { O_WRONLY, O_RDONLY, O_CREAT, O_EXCL, O_APPEND, O_NOFOLLOW, O_DIRECTORY } = constants

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`

/** Why a file operation failed, in words for the person running the app. */
export function fsReason(err: unknown, folder?: string): string {
  const code = (err as NodeJS.ErrnoException)?.code
  switch (code) {
    case 'ENOENT':
      return folder ? `la carpeta ${folder} no existe` : 'el archivo o la carpeta no existe'
    case 'ENOTDIR':
      return 'una parte de la ruta no es una carpeta'
    case 'EACCES':
    case 'EPERM':
      return folder ? `no hay permiso para escribir en ${folder}` : 'no hay permiso'
    case 'ENOSPC':
      return 'no queda espacio en el disco'
    case 'EDQUOT':
      return 'se ha superado la cuota de disco'
    case 'EROFS':
      return 'el disco es de solo lectura'
    case 'EISDIR':
      return 'es una carpeta'
    case 'EIO':
      return 'error de lectura o escritura del disco'
    case 'ELOOP':
      return 'es un enlace simbólico, y no se sigue'
    default:
      return (err as Error)?.message ?? String(err)
  }
}

/** An error of the file system (open, write, rename…), as opposed to one of the database or of the data. */
export function isFileSystemError(err: unknown): boolean {
  const e = err as { code?: unknown; syscall?: unknown; path?: unknown }
  return (
    typeof e?.code === 'string' &&
    (typeof e.path === 'string' ||
      ['open', 'write', 'writev', 'read', 'fsync', 'fdatasync', 'close', 'rename', 'ftruncate', 'fchmod'].includes(
        String(e.syscall),
      ))
  )
}

/**
 * A private folder (DECISIONS R): created with `mode` whatever the umask, and an existing one with looser
 * bits is tightened, saying so. `owner` (root only) hands it to another user. With `noFollow` the folder
 * must not be a symbolic link: as root, chmod and chown through a link would apply to whatever it points to.
 * The mode and owner are set on the open folder (fchmod, fchown), never through its path again.
 */
export function ensurePrivateDir(
  dir: string,
  mode: number,
  notice: Notice,
  owner?: { uid: number; gid: number },
  { noFollow = false }: { noFollow?: boolean } = {},
): void {
  let created = false
  try {
    mkdirSync(dir, { mode })
    created = true
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') {
      mkdirSync(dir, { recursive: true, mode })
      created = true
    } else if (code !== 'EEXIST') throw err
  }
  let fd: number
  try {
    fd = openSync(dir, O_RDONLY | O_DIRECTORY | (noFollow ? O_NOFOLLOW : 0))
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ELOOP' || (noFollow && code === 'ENOTDIR' && lstatSync(dir).isSymbolicLink())) {
      throw new UnsafePathError(
        `${dir} es un enlace simbólico: por seguridad no se sigue. Sustitúyelo por una carpeta (o mueve lo que enlaza a su sitio) y vuelve a arrancar.`,
      )
    }
    if (code === 'ENOTDIR') throw new UnsafePathError(`${dir} no es una carpeta. Muévelo a otro sitio y vuelve a arrancar.`)
    throw err
  }
  try {
    const st = fstatSync(fd)
    const current = st.mode & 0o777
    if (current !== mode) {
      fchmodSync(fd, mode)
      if (!created && current & ~mode)
        notice(`Permisos de ${dir} ajustados de ${octal(current)} a ${octal(mode)}: la carpeta es privada.`)
    }
    if (owner && (st.uid !== owner.uid || st.gid !== owner.gid)) fchownSync(fd, owner.uid, owner.gid)
  } finally {
    closeSync(fd)
  }
}

/** The uploads folder of a restore: created 0700 when missing, tightened to 0700 otherwise. */
export async function ensurePrivateDirAsync(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 })
  await chmod(dir, 0o700)
}

function symlinkRefused(file: string): UnsafePathError {
  return new UnsafePathError(
    `${file} es un enlace simbólico: por seguridad no se sigue. Bórralo (no borra aquello a lo que apunta) y vuelve a arrancar.`,
  )
}

/**
 * Opens a file without following a symbolic link at its name (O_NOFOLLOW): a link planted there makes
 * the open fail instead of reaching whatever it points to.
 */
function openNoFollow(file: string, flags: number, mode = 0o600): number {
  try {
    return openSync(file, flags | O_NOFOLLOW, mode)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw symlinkRefused(file)
    throw err
  }
}

/** Tightens an existing file to 0600 (secrets, logs), saying so when it was readable by others. Never through a link. */
export function ensurePrivateFile(file: string, notice: Notice): void {
  let fd: number
  try {
    fd = openNoFollow(file, O_RDONLY)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return
    throw err
  }
  try {
    const current = fstatSync(fd).mode & 0o777
    if (current !== 0o600) {
      fchmodSync(fd, 0o600)
      if (current & 0o077) notice(`Permisos de ${file} ajustados de ${octal(current)} a 0600.`)
    }
  } finally {
    closeSync(fd)
  }
}

/** Reads a secret the app wrote (a regular file, never through a symbolic link). */
export function readPrivateFile(file: string): string {
  const fd = openNoFollow(file, O_RDONLY)
  try {
    const st = fstatSync(fd)
    if (!st.isFile()) throw new UnsafePathError(`${file} no es un archivo normal.`)
    const buffer = Buffer.alloc(st.size)
    let read = 0
    while (read < st.size) {
      const n = readSync(fd, buffer, read, st.size - read, read)
      if (!n) break
      read += n
    }
    return buffer.subarray(0, read).toString('utf8')
  } finally {
    closeSync(fd)
  }
}

/** Opens a log for appending, 0600, never through a symbolic link (it is handed to PostgreSQL as its output). */
export function openPrivateLog(file: string): number {
  const fd = openNoFollow(file, O_WRONLY | O_APPEND | O_CREAT)
  try {
    if (!fstatSync(fd).isFile()) throw new UnsafePathError(`${file} no es un archivo normal.`)
    return fd
  } catch (err) {
    closeSync(fd)
    throw err
  }
}

/** A folder's entries reach the disk (after a rename in it); not every platform can sync a folder. */
function syncDirSync(dir: string): void {
  try {
    const fd = openSync(dir, O_RDONLY)
    try {
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
  } catch {
    /* best effort */
  }
}

const temporaryBeside = (file: string) =>
  path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`)

/**
 * Writes a secret atomically with mode 0600 whatever the umask: a new temporary file beside it, created
 * exclusively (O_EXCL: never an existing file or link), synced, then renamed over `file` (a rename replaces
 * a link, never follows it). `owner` (root only) hands the file to another user through its descriptor.
 * On failure the temporary file is removed.
 */
export function writePrivateFile(file: string, content: string, owner?: { uid: number; gid: number }): void {
  const tmp = temporaryBeside(file)
  const fd = openNoFollow(tmp, O_WRONLY | O_CREAT | O_EXCL)
  try {
    try {
      fchmodSync(fd, 0o600)
      if (owner) fchownSync(fd, owner.uid, owner.gid)
      writeSync(fd, content)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(tmp, file)
  } catch (err) {
    try {
      unlinkSync(tmp)
    } catch {
      /* already gone */
    }
    throw err
  }
  syncDirSync(path.dirname(file))
}

/**
 * Creates a file that is new and private, for the app's own content: O_EXCL (fails on anything already
 * there, a symbolic link included) and 0600 whatever the umask.
 */
export async function createPrivateFile(file: string): Promise<FileHandle> {
  const handle = await open(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600)
  try {
    await handle.chmod(0o600)
    return handle
  } catch (err) {
    await handle.close()
    await rm(file, { force: true })
    throw err
  }
}

/**
 * Writes `file` whole or not at all, private: `produce` writes into a new temporary file beside it (0600,
 * exclusive), which is synced and renamed over `file` only when `produce` succeeded; an existing `file`
 * (whatever its mode) is replaced by the new one, 0600. On any failure the temporary file is removed and
 * `file` is left as it was; a failure of the file system is reported through `failure(reason)`.
 */
export async function writeFileAtomically<T>(
  file: string,
  produce: (output: Writable) => Promise<T>,
  failure: (reason: string) => Error,
): Promise<T> {
  const dir = path.dirname(file)
  const temp = temporaryBeside(file)
  let handle: FileHandle
  try {
    handle = await createPrivateFile(temp)
  } catch (err) {
    throw failure(fsReason(err, dir))
  }
  // The stream owns the descriptor: it syncs it to disk (flush) before closing it.
  const output = handle.createWriteStream({ flush: true })
  try {
    const result = await produce(output)
    if (!output.closed) {
      await new Promise<void>((resolve, reject) => {
        output.once('close', resolve)
        output.once('error', reject)
        output.end()
      })
    }
    await rename(temp, file)
    syncDirSync(dir)
    return result
  } catch (err) {
    output.destroy()
    await handle.close().catch(() => {})
    await rm(temp, { force: true })
    throw isFileSystemError(err) ? failure(fsReason(err)) : err
  }
}
