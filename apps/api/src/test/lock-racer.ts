import { createInterface } from 'node:readline'
import { type DataDirLock, lockDataDir } from '../db/embedded'

/**
 * A process that takes and releases a data directory's lock when told, for the race test of
 * db/embedded.test.ts: one command a line on stdin ('take DIR', 'release'), one answer a line on stdout
 * ('won', 'lost …', 'released').
 */
let held: DataDirLock | undefined
const lines = createInterface({ input: process.stdin })
lines.on('line', (line) => {
  if (line === 'release') {
    const lock = held
    held = undefined
    void (lock?.release() ?? Promise.resolve()).then(() => process.stdout.write('released\n'))
  } else if (line.startsWith('take ')) {
    lockDataDir(line.slice(5)).then(
      (lock) => {
        held = lock
        process.stdout.write('won\n')
      },
      (err: Error) => process.stdout.write(`lost ${err.message.replaceAll('\n', ' ')}\n`),
    )
  }
})
lines.on('close', () => process.exit(0))
process.stdout.write('ready\n')
