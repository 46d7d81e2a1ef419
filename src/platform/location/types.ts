/** The user's position in GCJ-02 (what we store and what WeChat and AMap use). */
export interface Position {
  lng: number
  lat: number
  accuracy: number
}

export type Locate = () => Promise<Position>
