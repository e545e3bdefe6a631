/** Defined as `true` by scripts/build.mjs in the built CLI; undeclared (typeof 'undefined') when the sources run through tsx. */
declare const __NDD_BUILT__: boolean | undefined;
