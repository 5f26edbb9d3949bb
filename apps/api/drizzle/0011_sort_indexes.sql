-- Sorting residents by home or by dependency grade read one index instead of sorting every resident the
-- worker sees (bench:all at 100,000 residents: 160-190 ms at 10 connections). The home's sort key is copied
-- onto its residents and kept by triggers: a resident's insert or move reads it, a home's rename spreads it.
ALTER TABLE "usuarios" ADD COLUMN "vivienda_orden" text;--> statement-breakpoint
CREATE OR REPLACE FUNCTION usuarios_vivienda_orden() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  NEW.vivienda_orden := (SELECT v.orden_nombre FROM viviendas v WHERE v.id = NEW.vivienda_id);
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER usuarios_vivienda_orden BEFORE INSERT OR UPDATE OF vivienda_id, vivienda_orden ON "usuarios"
  FOR EACH ROW EXECUTE FUNCTION usuarios_vivienda_orden();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION viviendas_orden_a_usuarios() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  UPDATE usuarios SET vivienda_orden = NEW.orden_nombre
   WHERE vivienda_id = NEW.id AND vivienda_orden IS DISTINCT FROM NEW.orden_nombre;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER viviendas_orden_a_usuarios AFTER UPDATE OF nombre ON "viviendas"
  FOR EACH ROW EXECUTE FUNCTION viviendas_orden_a_usuarios();
--> statement-breakpoint
UPDATE "usuarios" u SET "vivienda_orden" = v."orden_nombre" FROM "viviendas" v WHERE v."id" = u."vivienda_id";--> statement-breakpoint
CREATE INDEX "usuarios_orden_grado_idx" ON "usuarios" USING btree ("grado_dependencia","orden_apellidos","orden_nombre","id");--> statement-breakpoint
CREATE INDEX "usuarios_orden_vivienda_idx" ON "usuarios" USING btree ("vivienda_orden","orden_apellidos","orden_nombre","id");
