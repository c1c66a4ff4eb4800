// The little of Ghost's published clients (JavaScript without types) that the tests call.
declare module "@tryghost/admin-api" {
  type GhostRecord = Record<string, unknown> & {
    id: string;
    title?: string;
    slug?: string;
    status?: string;
    html?: string;
    updated_at: string;
    primary_tag?: { name: string } | null;
  };
  interface Resource {
    add(data: Record<string, unknown>, query?: Record<string, string>): Promise<GhostRecord>;
    edit(data: Record<string, unknown>, query?: Record<string, string>): Promise<GhostRecord>;
    delete(data: { id: string }): Promise<unknown>;
    read(data: { id?: string; slug?: string }): Promise<GhostRecord>;
    browse(query?: Record<string, string | number>): Promise<GhostRecord[]>;
  }
  interface GhostAdminApi {
    posts: Resource;
    tags: Resource;
    site: { read(): Promise<Record<string, unknown>> };
    images: { upload(data: { file: string; ref?: string }): Promise<{ url: string; ref: string | null }> };
  }
  /** The client's own hook for sending a request: a test may send it itself, to read the answer's headers. */
  type MakeRequest = (options: {
    url: string;
    method: string;
    data?: unknown;
    params?: unknown;
    headers: Record<string, string>;
  }) => Promise<unknown>;
  const GhostAdminAPI: new (options: {
    url: string;
    key: string;
    version: string;
    makeRequest?: MakeRequest;
  }) => GhostAdminApi;
  export default GhostAdminAPI;
}

declare module "@tryghost/content-api" {
  type Named = { name: string; slug: string };
  type GhostPost = Record<string, unknown> & {
    id: string;
    title: string;
    slug: string;
    html?: string;
    tags?: Named[];
    authors?: Named[];
  };
  type Page<T> = T[] & { meta: { pagination: Record<string, number | null> } };
  interface Resource<T> {
    browse(query?: Record<string, string | number>): Promise<Page<T>>;
    read(data: { id?: string; slug?: string }, query?: Record<string, string>): Promise<T>;
  }
  interface GhostContentApi {
    posts: Resource<GhostPost>;
    pages: Resource<GhostPost>;
    tags: Resource<Named>;
    authors: Resource<Named>;
    settings: { browse(): Promise<Record<string, unknown>> };
  }
  const GhostContentAPI: new (options: { url: string; key: string; version: string }) => GhostContentApi;
  export default GhostContentAPI;
}
