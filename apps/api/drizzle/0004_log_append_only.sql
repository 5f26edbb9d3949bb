-- DECISIONS L2: the log is history. Entries written before the names were kept get them now, from the
-- workers and homes that still exist; from here on no statement may change or delete an entry.
UPDATE "logs" l SET "trabajador_nombre" = t."nombre" || ' ' || t."apellidos"
  FROM "trabajadores" t WHERE t."id" = l."trabajador_id" AND l."trabajador_nombre" IS NULL;
--> statement-breakpoint
UPDATE "logs" l SET "vivienda_nombre" = v."nombre"
  FROM "viviendas" v WHERE v."id" = l."vivienda_id" AND l."vivienda_nombre" IS NULL;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION logs_append_only() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'El registro de actividad no se puede modificar ni borrar (DECISIONS L2)'
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER logs_append_only BEFORE UPDATE OR DELETE ON "logs"
  FOR EACH ROW EXECUTE FUNCTION logs_append_only();
--> statement-breakpoint
CREATE TRIGGER logs_no_truncate BEFORE TRUNCATE ON "logs"
  FOR EACH STATEMENT EXECUTE FUNCTION logs_append_only();
