DROP INDEX "notificaciones_dedupe_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "notificaciones_dedupe_unique" ON "notificaciones" USING btree ("dedupe_key","trabajador_id");