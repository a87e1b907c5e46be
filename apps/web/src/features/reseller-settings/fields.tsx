import {
  CONTRAST_TEXTS,
  type ContrastWarning,
  IMAGE_ACCEPT,
  imageSizeHint,
  imageUrl,
  MESSAGES,
  type ResellerImageKind,
  type ResellerLookAndFeelSettingsForm,
} from '@portal/domain';
import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';
import { fieldMessage } from '../../ui';

const T = MESSAGES.resellerSettings;

/** #rgb or #rrggbb as the #rrggbb a colour input takes; anything else (blank: the default) as fallback. */
function pickerValue(value: unknown, fallback: string): string {
  if (typeof value !== 'string') return fallback;
  if (/^#[0-9a-f]{6}$/i.test(value)) return value.toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(value);
  return short ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase() : fallback;
}

/**
 * A colour: a picker and its hex text side by side; blank text means the default colour. A colour whose text would
 * not read (issue 31) gets a warning, which does not stop the save, with the nearest colour that passes to take.
 */
export function ColourField<F extends FieldValues>({
  form,
  name,
  label,
  fallback,
  warning,
}: {
  form: UseFormReturn<F>;
  name: Path<F>;
  label: string;
  /** The default colour the picker shows while the text is blank. */
  fallback: string;
  warning?: ContrastWarning | undefined;
}) {
  const error = form.formState.errors[name];
  const message = fieldMessage(form, name);
  const value = form.watch(name);
  const set = (colour: string) =>
    form.setValue(name, colour as PathValue<F, Path<F>>, { shouldDirty: true, shouldValidate: true });
  const warningId = `colour-${name}-contrast`;
  return (
    <Form.Group className="mb-3" controlId={`colour-${name}`}>
      <Form.Label>{label}</Form.Label>
      <InputGroup hasValidation>
        <Form.Control
          type="color"
          id={`colour-${name}-picker`}
          className="form-control-color flex-grow-0"
          aria-label={`${label} picker`}
          value={pickerValue(value, fallback)}
          onChange={(event) => set(event.target.value)}
        />
        <Form.Control
          type="text"
          placeholder={T.defaultColour}
          {...form.register(name)}
          isInvalid={Boolean(error)}
          aria-describedby={warning ? warningId : undefined}
        />
        <Form.Control.Feedback type="invalid">{message}</Form.Control.Feedback>
      </InputGroup>
      {warning && !error && (
        <div className="small mt-1" id={warningId} role="status" data-testid={`contrast-warning-${name}`}>
          <span aria-hidden="true">⚠ </span>
          {warning.message}{' '}
          <Button variant="link" size="sm" className="p-0 align-baseline" onClick={() => set(warning.suggestion)}>
            {CONTRAST_TEXTS.takeSuggestion(warning.suggestion)}
          </Button>
        </div>
      )}
    </Form.Group>
  );
}

/** A chosen file's preview address, released when the choice changes. */
export function usePreview(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file || typeof URL.createObjectURL !== 'function') {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url;
}

/** The file a file input's value holds, if one was chosen. */
export const chosenFile = (files: unknown): File | null =>
  files instanceof FileList && files.length > 0 ? (files[0] ?? null) : null;

/** A logo or favicon: the current image, the file input (the domain's accepted types) and the chosen file's preview. */
export function ImageField({
  form,
  name,
  label,
  current,
}: {
  form: UseFormReturn<ResellerLookAndFeelSettingsForm>;
  name: ResellerImageKind;
  label: string;
  current: string | null;
}) {
  const error = form.formState.errors[name];
  const message = fieldMessage(form, name);
  const preview = usePreview(chosenFile(form.watch(name)));
  const height = name === 'logo' ? 60 : 32;
  return (
    <Form.Group className="mb-3" controlId={`image-${name}`}>
      <Form.Label>{label}</Form.Label>
      <div className="d-flex align-items-center gap-3 mb-2">
        <span className="text-muted small">{T.currentImage}:</span>
        {current ? (
          <img
            src={imageUrl(current)}
            alt={`${label}: ${T.currentImage}`}
            height={height}
            data-testid={`current-${name}`}
          />
        ) : (
          <span className="small">{T.noImage}</span>
        )}
        {preview && (
          <>
            <span className="text-muted small">{T.newImage}:</span>
            <img src={preview} alt={`${label}: ${T.newImage}`} height={height} data-testid={`preview-${name}`} />
          </>
        )}
      </div>
      <Form.Control
        type="file"
        accept={IMAGE_ACCEPT[name]}
        {...form.register(name)}
        isInvalid={Boolean(error)}
        aria-describedby={`image-${name}-hint`}
      />
      <Form.Text id={`image-${name}-hint`} muted>
        {imageSizeHint(name)}
      </Form.Text>
      <Form.Control.Feedback type="invalid">{message}</Form.Control.Feedback>
    </Form.Group>
  );
}
