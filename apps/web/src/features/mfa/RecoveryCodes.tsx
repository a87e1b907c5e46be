import { MFA_TEXTS } from '@portal/domain';
import { Alert, Button } from 'react-bootstrap';
import { toast } from '../../ui';

/** The recovery codes, shown once: copy, download, then Done. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `${codes.join('\n')}\n`;
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div>
      <h3 className="h6">{MFA_TEXTS.recoveryCodesTitle}</h3>
      <Alert variant="warning">{MFA_TEXTS.recoveryCodesIntro}</Alert>
      <ol className="font-monospace" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="d-flex gap-2">
        <Button
          variant="outline-secondary"
          onClick={() => void navigator.clipboard?.writeText(text).then(() => toast.success(MFA_TEXTS.copied))}
        >
          {MFA_TEXTS.copy}
        </Button>
        <Button variant="outline-secondary" onClick={download}>
          {MFA_TEXTS.download}
        </Button>
        <Button onClick={onDone}>{MFA_TEXTS.done}</Button>
      </div>
    </div>
  );
}
