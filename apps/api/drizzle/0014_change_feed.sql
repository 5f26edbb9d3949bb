-- What an API process keeps in memory about a worker (the token's worker, their unread notifications:
-- lib/live-cache.ts) is dropped when PostgreSQL tells it, on the `cambios` channel, that those rows changed:
-- whoever made the change (this process, another one, the admin command, straight SQL). One NOTIFY per worker
-- a statement touched, `tabla:trabajador_id`, sent only on commit; `*` drops everything (a restore, a TRUNCATE).
CREATE OR REPLACE FUNCTION cambios_por_trabajador() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  columna text := TG_ARGV[0];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('cambios', '*');
  ELSIF TG_OP = 'INSERT' THEN
    EXECUTE format('SELECT pg_notify(''cambios'', %L || '':'' || t) FROM (SELECT DISTINCT %I AS t FROM nuevas) s',
      TG_TABLE_NAME, columna);
  ELSIF TG_OP = 'DELETE' THEN
    EXECUTE format('SELECT pg_notify(''cambios'', %L || '':'' || t) FROM (SELECT DISTINCT %I AS t FROM viejas) s',
      TG_TABLE_NAME, columna);
  ELSE
    EXECUTE format(
      'SELECT pg_notify(''cambios'', %L || '':'' || t) FROM (SELECT %I AS t FROM viejas UNION SELECT %I FROM nuevas) s',
      TG_TABLE_NAME, columna, columna);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER trabajadores_cambios_insert AFTER INSERT ON "trabajadores"
  REFERENCING NEW TABLE AS nuevas FOR EACH STATEMENT EXECUTE FUNCTION cambios_por_trabajador('id');
--> statement-breakpoint
CREATE TRIGGER trabajadores_cambios_update AFTER UPDATE ON "trabajadores"
  REFERENCING OLD TABLE AS viejas NEW TABLE AS nuevas FOR EACH STATEMENT EXECUTE FUNCTION cambios_por_trabajador('id');
--> statement-breakpoint
CREATE TRIGGER trabajadores_cambios_delete AFTER DELETE ON "trabajadores"
  REFERENCING OLD TABLE AS viejas FOR EACH STATEMENT EXECUTE FUNCTION cambios_por_trabajador('id');
--> statement-breakpoint
CREATE TRIGGER trabajadores_cambios_truncate AFTER TRUNCATE ON "trabajadores"
  FOR EACH STATEMENT EXECUTE FUNCTION cambios_por_trabajador('id');
--> statement-breakpoint
CREATE TRIGGER trabajador_empresas_cambios_insert AFTER INSERT ON "trabajador_empresas"
  REFERENCING NEW TABLE AS nuevas FOR EACH STATEMENT EXECUTE FUNCTION cambios_por_trabajador('trabajador_id');
--> statement-breakpoint
CREATE TRIGGER trabajador_empresas_cambios_update AFTER UPDATE ON "trabajador_empresas"
  REFERENCING OLD TABLE AS viejas NEW TABLE AS nuevas FOR EACH STATEMENT EXECUTE FUNCTION cambios_por_trabajador('trabajador_id');
--> statement-breakpoint
CREATE TRIGGER trabajador_empresas_cambios_delete AFTER DELETE ON "trabajador_empresas"
  REFERENCING OLD TABLE AS viejas FOR EACH STATEMENT EXECUTE FUNCTION cambios_por_trabajador('trabajador_id');
--> statement-breakpoint
CREATE TRIGGER trabajador_empresas_cambios_truncate AFTER TRUNCATE ON "trabajador_empresas"
  FOR EACH STATEMENT EXECUTE FUNCTION cambios_por_trabajador('trabajador_id');
--> statement-breakpoint
CREATE TRIGGER notificaciones_cambios_insert AFTER INSERT ON "notificaciones"
  REFERENCING NEW TABLE AS nuevas FOR EACH STATEMENT EXECUTE FUNCTION cambios_por_trabajador('trabajador_id');
--> statement-breakpoint
CREATE TRIGGER notificaciones_cambios_update AFTER UPDATE ON "notificaciones"
  REFERENCING OLD TABLE AS viejas NEW TABLE AS nuevas FOR EACH STATEMENT EXECUTE FUNCTION cambios_por_trabajador('trabajador_id');
--> statement-breakpoint
CREATE TRIGGER notificaciones_cambios_delete AFTER DELETE ON "notificaciones"
  REFERENCING OLD TABLE AS viejas FOR EACH STATEMENT EXECUTE FUNCTION cambios_por_trabajador('trabajador_id');
--> statement-breakpoint
CREATE TRIGGER notificaciones_cambios_truncate AFTER TRUNCATE ON "notificaciones"
  FOR EACH STATEMENT EXECUTE FUNCTION cambios_por_trabajador('trabajador_id');
--> statement-breakpoint
-- Processes running while this migration lands (a restore, an upgrade) drop what they kept.
SELECT pg_notify('cambios', '*');
