import { z } from 'zod'

/** Any message a schema does not set itself comes out in Spanish, on both sides. */
z.config(z.locales.es())

// DECISIONS S6: unless told otherwise, zod compiles object validators with `new Function`, and it probes
// whether it may as soon as the first object schema is created. The web app's CSP (script-src 'self') forbids
// it, so in a browser the validators are interpreted. Every module of the package takes `z` from here, so this
// runs before any of its schemas is created, whichever module a screen imports (the web app imports each
// module on its own, `@vb/shared/<module>`, so that a screen builds its own schemas only). The API keeps the
// compiled validators.
if (typeof (globalThis as { window?: unknown }).window !== 'undefined') z.config({ jitless: true })

export { z }
