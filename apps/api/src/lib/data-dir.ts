import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  statSync,
  writeSync,
} from 'node:fs'
import path from 'node:path'

/** Something the start-up log should say (a tightened mode, a reclaimed server…). */
export type Notice = (message: string) => void

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`

/**
 * A private folder (DECISIONS R, issue 'faults' item 8): created with `mode` whatever the umask, and an
 * existing one with looser bits is tightened, saying so. `owner` (root only) hands it to another user.
 */
export function ensurePrivateDir(dir: string, mode: number, notice: Notice, owner?: { uid: number; gid: number }): void {
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true, mode })
    chmodSync(dir, mode)
  } else {
    const current = statSync(dir).mode & 0o777
    if (current !== mode) {
      chmodSync(dir, mode)
      if (current & ~mode) notice(`Permisos de ${dir} ajustados de ${octal(current)} a ${octal(mode)}: la carpeta es privada.`)
    }
  }
  if (owner) {
    const st = statSync(dir)
    if (st.uid !== owner.uid || st.gid !== owner.gid) chownSync(dir, owner.uid, owner.gid)
  }
}

/** Tightens an existing file to 0600 (secrets, logs), saying so when it was readable by others. */
export function ensurePrivateFile(file: string, notice: Notice): void {
  if (!existsSync(file)) return
  const current = statSync(file).mode & 0o777
  if (current !== 0o600) {
    chmodSync(file, 0o600)
    if (current & 0o077) notice(`Permisos de ${file} ajustados de ${octal(current)} a 0600.`)
  }
}

/** Writes a secret atomically with mode 0600 (temporary file, fsync, rename), whatever the umask. */
export function writePrivateFile(file: string, content: string): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`)
  const fd = openSync(tmp, 'w', 0o600)
  try {
    writeSync(fd, content)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  chmodSync(tmp, 0o600)
  renameSync(tmp, file)
}
