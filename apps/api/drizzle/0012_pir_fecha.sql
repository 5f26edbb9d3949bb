-- Each resident's latest PIR date, kept on the resident by a trigger on its documents: the start page counted
-- expired and expiring PIR by probing the documents of every resident of the company (22 ms at 5,000 residents
-- in bench:all), and each list page probed them once per row. The rule (6 months, Madrid days) stays in the code.
ALTER TABLE "usuarios" ADD COLUMN "pir_fecha" timestamp with time zone;--> statement-breakpoint
CREATE OR REPLACE FUNCTION documentos_pir_a_usuario() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF upper(trim(NEW.titulo)) <> 'PIR' THEN RETURN NULL; END IF;
    ids := ARRAY[NEW.usuario_id];
  ELSIF TG_OP = 'DELETE' THEN
    IF upper(trim(OLD.titulo)) <> 'PIR' THEN RETURN NULL; END IF;
    ids := ARRAY[OLD.usuario_id];
  ELSE
    IF upper(trim(OLD.titulo)) <> 'PIR' AND upper(trim(NEW.titulo)) <> 'PIR' THEN RETURN NULL; END IF;
    IF OLD.usuario_id = NEW.usuario_id AND OLD.fecha = NEW.fecha AND upper(trim(OLD.titulo)) = upper(trim(NEW.titulo)) THEN
      RETURN NULL;
    END IF;
    ids := ARRAY[OLD.usuario_id, NEW.usuario_id];
  END IF;
  -- Lock the residents first (NO KEY UPDATE does not wait for the documents' own foreign-key locks), then read
  -- the latest date in a statement of its own, so that it sees whatever a concurrent writer committed meanwhile.
  PERFORM 1 FROM usuarios WHERE id = ANY (ids) ORDER BY id FOR NO KEY UPDATE;
  UPDATE usuarios u
     SET pir_fecha = (SELECT max(d.fecha) FROM documentos_usuario d
                       WHERE d.usuario_id = u.id AND upper(trim(d.titulo)) = 'PIR')
   WHERE u.id = ANY (ids);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER documentos_pir_a_usuario AFTER INSERT OR UPDATE OR DELETE ON "documentos_usuario"
  FOR EACH ROW EXECUTE FUNCTION documentos_pir_a_usuario();
--> statement-breakpoint
UPDATE "usuarios" u SET "pir_fecha" = m.fecha
  FROM (SELECT usuario_id, max(fecha) AS fecha FROM documentos_usuario
         WHERE upper(trim(titulo)) = 'PIR' GROUP BY usuario_id) m
 WHERE m.usuario_id = u.id;
