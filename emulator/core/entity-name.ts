/**
 * What may name an entity: the CLI's rule (letters, digits, `_`) within what the entity routes
 * address — a letter first, 64 characters at most. One rule for entity files, record routes and
 * socket rooms, so a name one of them takes is never refused by another.
 */
const ENTITY_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

export function isEntityName(name: string): boolean {
  return ENTITY_NAME.test(name);
}
