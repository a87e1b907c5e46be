import { describe, expect, it } from 'vitest';
import { xmlValues } from './user-apis.js';

describe('xmlValues (IAM answers)', () => {
  it('reads every element of a name, entities decoded', () => {
    const answer = `<CreateAccessKeyResponse><CreateAccessKeyResult><AccessKey><UserName>portal-machine-1</UserName>
      <AccessKeyId>AKIAEXAMPLE</AccessKeyId><SecretAccessKey>a/b+c&amp;d</SecretAccessKey></AccessKey>
      </CreateAccessKeyResult></CreateAccessKeyResponse>`;
    expect(xmlValues(answer, 'AccessKeyId')).toEqual(['AKIAEXAMPLE']);
    expect(xmlValues(answer, 'SecretAccessKey')).toEqual(['a/b+c&d']);
    expect(xmlValues('<a><UserName>x</UserName><UserName>y</UserName></a>', 'UserName')).toEqual(['x', 'y']);
    expect(xmlValues('<a/>', 'Marker')).toEqual([]);
  });
});
