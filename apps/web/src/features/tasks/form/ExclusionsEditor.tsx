import { zodResolver } from '@hookform/resolvers/zod';
import { type ExclusionPlatform, exclusionEntrySchema, TASK_FORM_TEXTS } from '@portal/domain';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import ListGroup from 'react-bootstrap/ListGroup';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { FormModal, TextField } from '../../../ui';

const TEXT = TASK_FORM_TEXTS;

export interface ExclusionsEditorProps {
  exclusions: readonly string[];
  platform: ExclusionPlatform;
  onChange: (exclusions: string[]) => void;
  /** Messages of single entries (exclusions.{index}) and of the list. */
  entryErrors?: readonly (string | undefined)[];
  listError?: string | undefined;
  animation?: boolean;
}

/**
 * The task's exclusions (002 §5.7): the list with a Remove button per entry and the Exclusions entry modal,
 * which checks a new entry against the list with the domain's rules ('Cannot be empty', 'Duplicate
 * exclusion', 'Cannot end with double star', ...) before it is added.
 */
export function ExclusionsEditor({
  exclusions,
  platform,
  onChange,
  entryErrors = [],
  listError,
  animation,
}: ExclusionsEditorProps) {
  const [adding, setAdding] = useState(false);
  return (
    <div className="mb-3" data-testid="exclusions-editor">
      <div className="d-flex align-items-center justify-content-between mb-1">
        <span className="form-label mb-0">{TEXT.exclusions}</span>
        <Button size="sm" variant="outline-primary" onClick={() => setAdding(true)}>
          {TEXT.addExclusion}
        </Button>
      </div>
      {exclusions.length === 0 ? (
        <div className="text-muted small">{TEXT.noExclusions}</div>
      ) : (
        <ListGroup>
          {exclusions.map((exclusion, index) => (
            <ListGroup.Item key={exclusion} className="py-1 d-flex align-items-center gap-2" data-testid="exclusion">
              <code className="flex-grow-1">{exclusion}</code>
              {entryErrors[index] && <span className="text-danger small">{entryErrors[index]}</span>}
              <Button
                size="sm"
                variant="link"
                className="p-0"
                aria-label={`${TEXT.removeExclusion} ${exclusion}`}
                onClick={() => onChange(exclusions.filter((_, i) => i !== index))}
              >
                {TEXT.removeExclusion}
              </Button>
            </ListGroup.Item>
          ))}
        </ListGroup>
      )}
      {listError && <Form.Text className="text-danger">{listError}</Form.Text>}
      <ExclusionDialog
        show={adding}
        existing={exclusions}
        platform={platform}
        onHide={() => setAdding(false)}
        onAdd={(exclusion) => {
          onChange([...exclusions, exclusion]);
          setAdding(false);
        }}
        animation={animation}
      />
    </div>
  );
}

interface ExclusionValues {
  exclusion: string;
}

/** The Exclusions entry modal (002 §2.6, §5.7). */
export function ExclusionDialog({
  show,
  existing,
  platform,
  onHide,
  onAdd,
  animation,
}: {
  show: boolean;
  existing: readonly string[];
  platform: ExclusionPlatform;
  onHide: () => void;
  onAdd: (exclusion: string) => void;
  animation?: boolean | undefined;
}) {
  const form = useForm<ExclusionValues>({
    resolver: zodResolver(z.object({ exclusion: exclusionEntrySchema(existing, platform) })),
    defaultValues: { exclusion: '' },
  });
  const submit = form.handleSubmit((values) => onAdd(values.exclusion));
  return (
    <FormModal
      show={show}
      title={TEXT.exclusionTitle}
      onHide={onHide}
      onSubmit={(event) => {
        // The modal sits inside the task form in React's tree: its submit must not reach that form.
        event.stopPropagation();
        void submit(event);
      }}
      submitting={false}
      submitLabel={TEXT.addExclusion}
      onExited={() => form.reset({ exclusion: '' })}
      animation={animation}
      data-testid="exclusion-dialog"
    >
      <TextField form={form} idPrefix="exclusion-" name="exclusion" label={TEXT.exclusionLabel} />
      <Form.Text muted>{TEXT.exclusionHint}</Form.Text>
    </FormModal>
  );
}
