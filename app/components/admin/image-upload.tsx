import { useCallback, useEffect, useRef, useState } from "react";
import { href, useFetcher } from "react-router";
import { buttonStyles, fieldErrorStyles } from "~/components/ui/styles";
import { insertAtCursor } from "~/lib/insert-at-cursor";
import { escapeXml } from "#domain/escape.ts";
import { ACCEPTED_IMAGE_TYPES, type ImageFormat, MEDIA_LIMITS, mediaUrl, type UploadedMedia } from "#domain/media.ts";

export type BodyFormat = "markdown" | "html";

/** The file types an upload takes, for a file input's `accept`. */
export const ACCEPTED_IMAGE_FILES = Object.keys(ACCEPTED_IMAGE_TYPES).join(",");
export const UPLOAD_PATH = href("/admin/media");
const FAILED = "The image could not be uploaded. Please try again.";

/** The image as the post's format writes it. */
export function imageMarkup(media: Pick<UploadedMedia, "url">, alt: string, format: BodyFormat): string {
  const cleanAlt = alt.replace(/[\r\n]+/g, " ").trim();
  if (format === "markdown") return `![${cleanAlt.replace(/[[\]]/g, "")}](${media.url})`;
  return `<img src="${media.url}" alt="${escapeXml(cleanAlt)}">`;
}

/** A file name as a first alt text: "harbour-at-dawn.jpg" → "harbour at dawn". */
export function altFromFileName(name: string): string {
  return name
    .replace(/\.[^.]+$/, "")
    .replace(/[-_]+/g, " ")
    .trim();
}

/** XMLHttpRequest rather than fetch: it reports upload progress. */
function sendImage(file: File, onProgress: (fraction: number) => void): Promise<UploadedMedia> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", UPLOAD_PATH);
    request.responseType = "json";
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    request.addEventListener("load", () => {
      const body = request.response as { media?: UploadedMedia; error?: string } | null;
      if (request.status === 201 && body?.media) resolve(body.media);
      else reject(new Error(body?.error ?? FAILED));
    });
    request.addEventListener("error", () => reject(new Error(FAILED)));
    const data = new FormData();
    data.append("file", file);
    request.send(data);
  });
}

/** One upload at a time, with its progress (0–1) and the server's reason when it fails. */
export function useImageUpload() {
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const upload = useCallback(async (file: File): Promise<UploadedMedia | undefined> => {
    setError(null);
    if (file.size > MEDIA_LIMITS.maxBytes) {
      setError(`Images may be at most ${MEDIA_LIMITS.maxBytes / 1024 / 1024} MB.`);
      return undefined;
    }
    setProgress(0);
    try {
      return await sendImage(file, setProgress);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : FAILED);
      return undefined;
    } finally {
      setProgress(null);
    }
  }, []);

  return { upload, progress, error, busy: progress !== null };
}

function UploadStatus({ label, progress, error }: { label: string; progress: number | null; error: string | null }) {
  return (
    <div aria-live="polite" className="min-h-5 text-sm">
      {progress !== null ? (
        <label className="flex items-center gap-2 text-slate-700 dark:text-slate-300">
          {label}
          <progress max={1} value={progress} className="h-2 w-40 accent-indigo-600" />
        </label>
      ) : null}
      {error ? (
        <p role="alert" className={fieldErrorStyles}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

function PickImageButton({
  label,
  disabled,
  onFile,
}: {
  label: string;
  disabled: boolean;
  onFile: (file: File) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        disabled={disabled}
        onClick={() => input.current?.click()}
        className={buttonStyles.secondary}
      >
        {label}
      </button>
      <input
        ref={input}
        type="file"
        accept={ACCEPTED_IMAGE_FILES}
        hidden
        aria-label={label}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          event.currentTarget.value = "";
          if (file) onFile(file);
        }}
      />
    </>
  );
}

function firstImage(items: DataTransfer | null): File | undefined {
  return Array.from(items?.files ?? []).find((file) => file.type.startsWith("image/"));
}

/**
 * Images for a post body: a button to pick a file, and pasting or dropping an image onto
 * the body's textarea. Each one lands at the cursor, written in the post's format.
 * Needs JavaScript; without it the writer can still link an image by URL.
 */
export function BodyImageUploader({ textareaId, format }: { textareaId: string; format: BodyFormat }) {
  const { upload, progress, error, busy } = useImageUpload();

  const insert = useCallback(
    async (file: File) => {
      const media = await upload(file);
      const textarea = document.getElementById(textareaId);
      if (media && textarea instanceof HTMLTextAreaElement) {
        insertAtCursor(textarea, imageMarkup(media, altFromFileName(file.name), format));
      }
    },
    [upload, textareaId, format],
  );

  useEffect(() => {
    const textarea = document.getElementById(textareaId);
    if (!(textarea instanceof HTMLTextAreaElement)) return;
    const onPaste = (event: ClipboardEvent) => {
      const file = firstImage(event.clipboardData);
      if (!file) return;
      event.preventDefault();
      void insert(file);
    };
    const onDragOver = (event: DragEvent) => {
      if (event.dataTransfer?.types.includes("Files")) event.preventDefault();
    };
    const onDrop = (event: DragEvent) => {
      const file = firstImage(event.dataTransfer);
      if (!file) return;
      event.preventDefault();
      // Drop where the pointer is, not where the cursor last was.
      textarea.focus();
      void insert(file);
    };
    textarea.addEventListener("paste", onPaste);
    textarea.addEventListener("dragover", onDragOver);
    textarea.addEventListener("drop", onDrop);
    return () => {
      textarea.removeEventListener("paste", onPaste);
      textarea.removeEventListener("dragover", onDragOver);
      textarea.removeEventListener("drop", onDrop);
    };
  }, [textareaId, insert]);

  const insertStored = (image: LibraryImage) => {
    const textarea = document.getElementById(textareaId);
    if (textarea instanceof HTMLTextAreaElement) {
      insertAtCursor(textarea, imageMarkup(image, altFromFileName(image.originalName), format));
    }
  };

  return (
    <div className="mt-2 space-y-2">
      <div className="flex flex-wrap items-center gap-3">
        <PickImageButton label="Insert image" disabled={busy} onFile={(file) => void insert(file)} />
        <span className="text-xs text-slate-600 dark:text-slate-400">or paste or drop one into the content</span>
        <UploadStatus label="Uploading image" progress={progress} error={error} />
      </div>
      <MediaPicker onPick={insertStored} />
    </div>
  );
}

interface LibraryImage {
  hash: string;
  url: string;
  widths: number[];
  format: ImageFormat;
  originalName: string;
  width: number;
  height: number;
}

/** Images already uploaded, a page at a time from the Media screen's loader, to insert again. */
function MediaPicker({ onPick }: { onPick: (image: LibraryImage) => void }) {
  const fetcher = useFetcher<{ items: LibraryImage[]; page: number; pageCount: number }>();
  const [open, setOpen] = useState(false);
  const page = fetcher.data?.page ?? 1;
  return (
    <div>
      <button
        type="button"
        aria-expanded={open}
        onClick={() => {
          if (!open && !fetcher.data) void fetcher.load(UPLOAD_PATH);
          setOpen(!open);
        }}
        className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
      >
        {open ? "Hide media library" : "Choose from media library"}
      </button>
      {open ? (
        <div className="mt-2 rounded-lg border border-slate-200 p-3 dark:border-slate-800">
          {fetcher.data && fetcher.data.items.length === 0 ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">No images yet.</p>
          ) : null}
          <ul className="grid grid-cols-3 gap-2 sm:grid-cols-6" aria-label="Media library">
            {fetcher.data?.items.map((image) => (
              <li key={image.hash}>
                <button
                  type="button"
                  onClick={() => onPick(image)}
                  aria-label={`Insert ${image.originalName}`}
                  className="block w-full overflow-hidden rounded border border-slate-200 hover:ring-2 hover:ring-indigo-500 dark:border-slate-700"
                >
                  <img
                    src={mediaUrl(image.hash, image.widths[0]!, image.format)}
                    alt=""
                    width={image.width}
                    height={image.height}
                    loading="lazy"
                    className="aspect-square w-full object-cover"
                  />
                </button>
              </li>
            ))}
          </ul>
          {fetcher.data && fetcher.data.pageCount > 1 ? (
            <div className="mt-2 flex gap-3 text-sm">
              <button
                type="button"
                disabled={page <= 1}
                onClick={() => void fetcher.load(`${UPLOAD_PATH}?page=${page - 1}`)}
              >
                Previous
              </button>
              <span>
                Page {page} of {fetcher.data.pageCount}
              </span>
              <button
                type="button"
                disabled={page >= fetcher.data.pageCount}
                onClick={() => void fetcher.load(`${UPLOAD_PATH}?page=${page + 1}`)}
              >
                Next
              </button>
            </div>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/** Uploads a cover and hands its address to the cover field. */
export function CoverImageUploader({ onUploaded }: { onUploaded: (url: string) => void }) {
  const { upload, progress, error, busy } = useImageUpload();
  return (
    <div className="flex flex-wrap items-center gap-3">
      <PickImageButton
        label="Upload cover image"
        disabled={busy}
        onFile={(file) => {
          void upload(file).then((media) => {
            if (media) onUploaded(media.url);
          });
        }}
      />
      <UploadStatus label="Uploading cover" progress={progress} error={error} />
    </div>
  );
}
