// jStat ships no types; this declares the one function the cost curve uses (curve-fit.ts).
declare module 'jstat' {
  const jstat: { readonly jStat: { readonly studentt: { inv(p: number, dof: number): number } } };
  export default jstat;
}
