import path from 'node:path'
import { defineConfig, devices } from '@playwright/test'

/**
 * Browser suite: the built app served by the real server on a fresh embedded database with the demo
 * data, driven in Debian's Chromium (no browser download is possible on this machine).
 */
const port = Number(process.env.E2E_PORT ?? 3100)
const root = path.resolve(import.meta.dirname, '../..')

export default defineConfig({
  testDir: './e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // Generous for a shared CI host that can run 2-4 times slower than a desk: the longest test takes ~8 s here.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'es-ES',
    timezoneId: 'Europe/Madrid',
    // Bootstrap drops its fades under reduced motion, so no assertion or axe run meets a half-faded element.
    reducedMotion: 'reduce',
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 } } }],
  webServer: {
    // e2e/server.mjs: the built server on a data folder of its own (E2E_DATA_DIR or a new temporary one, removed
    // once the server has stopped).
    command: 'node apps/web/e2e/server.mjs',
    cwd: root,
    url: `http://127.0.0.1:${port}/api/openapi.json`,
    reuseExistingServer: false,
    timeout: 120_000,
    // Stopped with SIGTERM, which the server answers by stopping its embedded PostgreSQL (started in a process
    // group of its own): Playwright's default, SIGKILL to the server's group, left that PostgreSQL running.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // The suite logs in many times as the same demo accounts; the limiter itself is covered by API tests.
      LOGIN_MAX_FAILURES_PER_EMAIL: '50',
      LOGIN_MAX_FAILURES_PER_IP: '500',
    },
  },
})
