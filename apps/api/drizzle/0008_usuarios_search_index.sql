-- 0007 re-created usuarios.busqueda with the one search definition (searchText in schema.ts); dropping the
-- column dropped its trigram index, which drizzle-kit does not know it has to create again.
CREATE INDEX IF NOT EXISTS "usuarios_busqueda_trgm_idx" ON "usuarios" USING gin ("busqueda" gin_trgm_ops);
