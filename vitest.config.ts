import { configDefaults, defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'shared', root: 'packages/shared', include: ['src/**/*.test.ts'] } },
      {
        test: {
          name: 'api',
          root: 'apps/api',
          include: ['src/**/*.test.ts'],
          // *.dist.test.ts check the built web app: the 'delivery' project runs them after the build.
          exclude: [...configDefaults.exclude, 'src/**/*.dist.test.ts'],
          environment: 'node',
          // One PostgreSQL per run (the embedded server, or TEST_DATABASE_URL) and a migrated template database.
          globalSetup: ['src/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Each file has its own copy of the template database; two at a time suits this 2-core machine.
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'delivery',
          root: 'apps/api',
          include: ['src/**/*.dist.test.ts'],
          environment: 'node',
          // The checks ask a real app for the files, so it needs the same database set-up as the API project.
          globalSetup: ['src/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'web',
          root: 'apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
        },
      },
    ],
  },
})
