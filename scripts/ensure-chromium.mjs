// Run by `npm run test:e2e` before Playwright (DECISIONS R): the browser suite uses Debian's Chromium
// (`/usr/bin/chromium`, or CHROMIUM_PATH). When it is missing and we are root, install it with apt-get;
// otherwise stop and say how. Playwright's own browser download is never used.
import { spawnSync } from 'node:child_process'
import { accessSync, constants } from 'node:fs'

const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium'

function found() {
  try {
    accessSync(chromiumPath, constants.X_OK)
    return true
  } catch {
    return false
  }
}

function apt(args) {
  console.log(`$ apt-get ${args.join(' ')}`)
  const result = spawnSync('apt-get', args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  })
  if (result.error) console.error(result.error.message)
  return result.status === 0
}

if (found()) {
  console.log(`Chromium: ${chromiumPath}`)
  process.exit(0)
}

if (process.env.CHROMIUM_PATH) {
  console.error(`CHROMIUM_PATH=${chromiumPath} does not exist or is not executable. Point it at a Chromium binary.`)
  process.exit(1)
}

if (process.getuid?.() === 0) {
  console.log(`Chromium not found at ${chromiumPath}: installing Debian's chromium package with apt-get…`)
  if (apt(['update']) && apt(['install', '-y', 'chromium']) && found()) {
    console.log(`Chromium installed: ${chromiumPath}`)
    process.exit(0)
  }
  console.error(`Installing chromium with apt-get failed, and ${chromiumPath} is still missing.`)
  process.exit(1)
}

console.error(
  [
    `Chromium not found at ${chromiumPath}; the browser suite needs it.`,
    'Install it with:   sudo apt-get install chromium',
    'or point CHROMIUM_PATH at an existing Chromium/Chrome binary, e.g. CHROMIUM_PATH=/usr/bin/chromium-browser npm test',
  ].join('\n'),
)
process.exit(1)
