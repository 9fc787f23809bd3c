/** Current time in unix seconds, the unit of every time column of the metadata DB. */
export function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}
