/**
 * Narrowed is a type generated from a schema with some attributes given narrower types
 * the code relies on (JSON values where the schema says "any object", a view's snapshot
 * where it says its attributes): `Omit<Generated, keyof Narrower> & Narrower`. `Narrower`
 * may only name attributes `Generated` has, each with a type `Generated` accepts, so a
 * narrowed type says more than the schema but never something else; every other
 * attribute, a new one included, is the schema's.
 */
export type Narrowed<
  Generated,
  Narrower extends { [Key in keyof Narrower]: Key extends keyof Generated ? Generated[Key] : never },
> = Omit<Generated, keyof Narrower> & Narrower;
