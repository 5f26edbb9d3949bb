DROP INDEX "notificaciones_trabajador_idx";--> statement-breakpoint
DROP INDEX "notificaciones_dedupe_unique";--> statement-breakpoint
-- INCLUDE is written here by hand (schema.ts cannot declare it): the bell's bounded count reads the index alone.
CREATE INDEX "notificaciones_trabajador_idx" ON "notificaciones" USING btree ("trabajador_id","fecha_notificacion","id") INCLUDE ("descartada_en");--> statement-breakpoint
CREATE UNIQUE INDEX "notificaciones_dedupe_unique" ON "notificaciones" USING btree ("dedupe_key","trabajador_id");
