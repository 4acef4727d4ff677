-- The services whose rows a user sees, as one array (model/worldClass.ts visibleAsList). Written
-- in place as a subquery of service_permissions, the view was planned again in every query that
-- named it: a dino search walking fourteen names planned it fourteen times, 13-15 ms of planning
-- against 2 ms through this function, whose own plan PL/pgSQL keeps for the session.
CREATE FUNCTION visible_services(viewer uuid) RETURNS uuid[] LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN ARRAY(SELECT service_id FROM service_permissions WHERE user_id = viewer);
END $$;
