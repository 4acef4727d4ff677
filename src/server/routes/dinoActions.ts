// POST /sentinel/dinos/{id}/locate|restore|edit (SENTINEL-API §2.3): sent to the game over the link;
// the answer is {requestId}, the outcome a realtime event (model/gameAction.ts).

import { Msg } from '../../domain/messages.ts';
import { editDinoPayload } from '../../domain/validate.ts';
import { dinoIdHalves } from '../../domain/world.ts';
import type { ServerContext } from '../context.ts';
import { readJson } from '../http/body.ts';
import { ApiException, badRequest, quoted } from '../http/errors.ts';
import { type ApiRouter, type Ctx, json, param } from '../http/router.ts';
import { check, isObject, type Json } from '../model/classPath.ts';
import { actionTarget, dispatch } from '../model/gameAction.ts';

const WRITE = ['sentinel:read', 'sentinel:write'];

async function bodyOf(c: Ctx): Promise<Json> {
  const body = await readJson(c);
  if (!isObject(body)) throw badRequest('badRequestBody', 'Send a JSON object.');
  return body;
}

export function registerDinoActionRoutes(router: ApiRouter, ctx: ServerContext): void {
  router.authed('POST', '/sentinel/dinos/:id/locate', WRITE, async (c, caller) => {
    const dino = await actionTarget(ctx.db, 'dino', param(c, 'id'), caller.userId);
    const command = { type: 'locate', dinoId: dino.dino_id, ...dinoIdHalves(dino.dino_number64 as string) };
    return json(c, await dispatch(ctx, dino.service_id, caller.userId, command, 'locate'));
  });

  router.authed('POST', '/sentinel/dinos/:id/edit', WRITE, async (c, caller) => {
    const dino = await actionTarget(ctx.db, 'dino', param(c, 'id'), caller.userId);
    const body = await bodyOf(c);
    check(editDinoPayload(body));
    const command = {
      type: 'editDino',
      dinoId: dino.dino_id,
      ...dinoIdHalves(dino.dino_number64 as string),
      ...(body.isSterilized !== undefined && { isSterilized: body.isSterilized }),
      ...(body.isFemale !== undefined && { isFemale: body.isFemale }),
    };
    return json(c, await dispatch(ctx, dino.service_id, caller.userId, command, 'request'));
  });

  router.authed('POST', '/sentinel/dinos/:id/restore', WRITE, async (c, caller) => {
    const dino = await actionTarget(ctx.db, 'dino', param(c, 'id'), caller.userId);
    const body = await bodyOf(c);
    if (body.characterId === undefined || body.characterId === null || body.characterId === '')
      throw badRequest('characterNotSpecified', 'Choose the survivor who receives the cryopod.');
    const character = await actionTarget(ctx.db, 'character', quoted(body.characterId), caller.userId).catch(
      (e: ApiException) => {
        throw e.status === 404 ? badRequest('invalidCharacterId', e.message, e.details) : e;
      },
    );
    if (character.service_id !== dino.service_id)
      throw badRequest('invalidCharacterId', 'The survivor must be on the same server as the dino.');
    if (dino.status !== 'Dead' || dino.restore_data === null)
      throw new ApiException(412, Msg.restoreNotAvailable, 'restoreNotAvailable');
    const command = {
      type: 'restoreDino',
      dinoId: dino.dino_id,
      ...dinoIdHalves(dino.dino_number64 as string),
      characterId: character.character_id,
      specimenId: character.specimen_id,
      restoreData: dino.restore_data,
    };
    return json(c, await dispatch(ctx, dino.service_id, caller.userId, command, 'request'));
  });
}
