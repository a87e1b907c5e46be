import {
  MESSAGES,
  STORAGE_CREDENTIAL_TYPE_TEXTS,
  type StorageCredentialType,
  type StorageLocationRef,
  storageLocationUrl,
} from '@portal/domain';
import { Link } from 'react-router';

const TEXT = MESSAGES.storageAccountPages;

export const yesNo = (value: boolean) => (value ? TEXT.yes : TEXT.no);

export const credentialTypeText = (type: StorageCredentialType | null) =>
  type === null ? TEXT.none : STORAGE_CREDENTIAL_TYPE_TEXTS[type];

/** A storage location a user or key serves: its name, linking to the location's page. */
export function LocationLink({ location }: { location: StorageLocationRef | null }) {
  if (location === null) return null;
  return <Link to={storageLocationUrl(location.customerId, location.id)}>{location.name}</Link>;
}

/** The storage credentials cell (001 §2): its parts, one per line. */
export function CredentialsCell({ parts }: { parts: ReadonlyArray<React.ReactNode> }) {
  return (
    <div className="small">
      {parts.map((part, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts are positional
        <div key={index}>{part}</div>
      ))}
    </div>
  );
}
