// POST /sentinel/characters/{id}/giveItem|giveDino|locate (SENTINEL-API §2.3), validated with the
// console's own validators, sent to the game over the link; the answer is {requestId}. A path inside
// an official pack must name a blueprint of the catalogue (src/domain/blueprints), so what is given
// exists in the game; third-party mod paths pass as the catalogue does not list them.

import { isKnownPath } from '../../domain/blueprints/index.ts';
import { UUID } from '../../domain/constants.ts';
import { Msg } from '../../domain/messages.ts';
import { GIVE_ITEM_STATS, giveDinoPayload, giveItemPayload } from '../../domain/validate.ts';
import type { ServerContext } from '../context.ts';
import { readJson } from '../http/body.ts';
import { ApiException, badRequest } from '../http/errors.ts';
import { type ApiRouter, json, param } from '../http/router.ts';
import { check, isObject, type Json } from '../model/classPath.ts';
import { actionTarget, dispatch } from '../model/gameAction.ts';

const WRITE = ['sentinel:read', 'sentinel:write'];

const pick = (b: Json, keys: readonly string[]) =>
  Object.fromEntries(keys.filter((k) => b[k] !== undefined && b[k] !== null).map((k) => [k, b[k]]));

/** Each give action: its validator and the game command fields it becomes. */
const GIVE = {
  giveItem: {
    validate: (b: Json) =>
      giveItemPayload(b) ??
      (isKnownPath('item', b.itemPath as string)
        ? null
        : {
            code: 'invalidPath',
            message: `${Msg.itemPathBad} The game has no item ${b.itemPath}.`,
            field: 'itemPath',
          }),
    fields: (b: Json) => ({
      itemPath: (b.itemPath as string).trim(),
      quantity: b.quantity,
      ...pick(b, ['quality', 'asBlueprint', 'minRandomQuality', 'respectStatClamps', 'itemRating']),
      stats: GIVE_ITEM_STATS.flatMap((k, index) =>
        typeof b[k] === 'number' ? [{ index, value: b[k] }] : [],
      ),
    }),
  },
  giveDino: {
    validate: (b: Json) =>
      giveDinoPayload(b) ??
      (isKnownPath('creature', b.dinoPath as string)
        ? null
        : { code: 'badDinoPath', message: `The game has no creature ${b.dinoPath}.`, field: 'dinoPath' }),
    fields: (b: Json) => ({
      dinoPath: (b.dinoPath as string).trim(),
      ...pick(b, [
        'name',
        'level',
        'age',
        'isFemale',
        'isSterilized',
        'colors',
        'stats',
        'traits',
        'imprint',
      ]),
    }),
  },
} as const;

export function registerCharacterActionRoutes(router: ApiRouter, ctx: ServerContext): void {
  for (const [action, give] of Object.entries(GIVE))
    router.authed('POST', `/sentinel/characters/:id/${action}`, WRITE, async (c, caller) => {
      const id = param(c, 'id');
      // Give Dino answers a malformed survivor id as unknown (SENTINEL-API §2.3: notFound, incl. non-UUID).
      if (action === 'giveDino' && !UUID.test(id))
        throw new ApiException(404, 'The survivor is not known to the product.', 'notFound', {
          characterId: id,
        });
      const character = await actionTarget(ctx.db, 'character', id, caller.userId);
      const body = await readJson(c);
      if (!isObject(body)) throw badRequest('badRequestBody', 'Send a JSON object.');
      check(give.validate(body));
      const command = {
        type: action,
        characterId: character.character_id,
        specimenId: character.specimen_id,
        playerId: character.player_id,
        ...give.fields(body),
      };
      return json(c, await dispatch(ctx, character.service_id, caller.userId, command, 'request'));
    });

  router.authed('POST', '/sentinel/characters/:id/locate', WRITE, async (c, caller) => {
    const character = await actionTarget(ctx.db, 'character', param(c, 'id'), caller.userId);
    const command = {
      type: 'locate',
      characterId: character.character_id,
      specimenId: character.specimen_id,
    };
    return json(c, await dispatch(ctx, character.service_id, caller.userId, command, 'locate'));
  });
}
