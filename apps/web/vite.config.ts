import { constants } from 'node:zlib'
import purgeCss from '@fullhuman/postcss-purgecss'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { compression, defineAlgorithm } from 'vite-plugin-compression2'

export default defineConfig(({ command }) => ({
  plugins: [
    react(),
    // Every text file gets .br and .gz copies at build time, at the highest levels (the server sends
    // them as they are, so a phone never waits for compression and never downloads the plain file).
    compression({
      include: /\.(js|css|svg|json|html)$/,
      exclude: /manifest\.json$/,
      algorithms: [
        defineAlgorithm('brotliCompress', {
          params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 11 },
        }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
    }),
  ],
  css: {
    // The built stylesheet keeps only the rules whose classes and elements appear in our code and in
    // react-bootstrap's, plus the classes react-bootstrap composes at run time from a prefix and its props
    // (variant, size, placement, responsive, bg…), which no file spells out.
    postcss: {
      plugins:
        command === 'build'
          ? [
              purgeCss({
                content: [
                  './index.html',
                  './src/**/*.{ts,tsx}',
                  '../../node_modules/react-bootstrap/esm/*.js',
                  '../../node_modules/@restart/ui/esm/*.js',
                ],
                safelist: {
                  standard: [
                    /^(btn|alert|badge|card|dropdown|modal|offcanvas|toast|spinner|form|input-group|page|pagination|table|nav|col|row|row-cols|g|gx|gy|container|btn-close|fade|show|showing|hiding|collapse|collapsing|active|disabled|is-invalid|is-valid|was-validated|has-validation|invalid-feedback|valid-feedback|visually-hidden|rounded-pill|position|top|bottom|start|end|translate-middle)(-|$)/,
                    /^(text|bg|border|text-bg|link)-(primary|secondary|success|danger|warning|info|light|dark|body|white|black)(-emphasis|-subtle)?$/,
                  ],
                },
              }),
            ]
          : [],
    },
    preprocessorOptions: {
      // Bootstrap 5.3's Sass still uses @import and global functions, which Dart Sass flags as deprecated:
      // keep the build log for our own warnings.
      scss: { quietDeps: true, silenceDeprecations: ['import'] },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: `http://127.0.0.1:${process.env.API_PORT ?? 3000}`, changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    manifest: true,
    // index.html announces the login page's own files; a screen's files are not announced by the import that loads
    // them: Vite's helper would add a <link rel=modulepreload> per file to the page, synchronously, in the task that
    // starts the app (30-40 ms of a load on this machine, before the screen could render). The browser finds a
    // screen's files from its chunk's imports instead: cached after the first visit, a round trip more before it.
    modulePreload: { resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : []) },
    // Modules run in the order the source imports them, whichever chunk they land in: main.tsx configures
    // zod (packages/shared/src/zod-es.ts) before the shared schemas are created, though they sit in a shared chunk.
    rolldownOptions: {
      // The entry's exports are nobody's (main.tsx starts the app): what inlining common chunks (below) requires.
      preserveEntrySignatures: false,
      output: {
        strictExecutionOrder: true,
        codeSplitting: {
          // Small common chunks (under 10 kB of source) are copied into the chunks that read them, behind rolldown's
          // runtime registry (one state, one run of each module whatever the copies), instead of being files of their
          // own: the login starts in 8 scripts where it took 15, a screen with the shell in 6-11 more where it took 13-28
          // (the delivery test holds both), each a request the main thread starts and a round trip on a phone
          // (docs/performance.md, fifth step).
          // The shared modules' zod-free parts (`@vb/shared/<module>-core`), which a screen and the schemas its form
          // loads later both import, go the same way: copied into both, they keep the screen's chunk its own and no
          // zod in it. Chunks holding a stylesheet stay files, so each stylesheet is still emitted once, by its own chunk.
          experimentalInlineCommonChunks: { maxSize: 10 * 1024, exclude: /\.(css|scss)(\?|$)/ },
          // React and the router change far less often than our code: in a chunk of their own, a new release of
          // the app leaves them cached (and the entry chunk stays under Vite's 500 kB warning).
          groups: [{ name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ }],
        },
      },
    },
  },
}))
