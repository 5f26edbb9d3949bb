import { z } from 'zod'

/** Any message a schema does not set itself comes out in Spanish, on both sides. */
z.config(z.locales.es())
