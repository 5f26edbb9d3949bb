import { z } from 'zod'

// DECISIONS S6: unless told otherwise, zod compiles object validators with `new Function`, and it
// probes whether it may as soon as the first object schema is created. Our CSP (script-src 'self') forbids
// it, so the browser reported a violation on every screen. main.tsx imports this module first, so it runs
// before the schemas of packages/shared are created. The API keeps the compiled validators.
z.config({ jitless: true })
