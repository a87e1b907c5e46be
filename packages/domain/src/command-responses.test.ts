import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  COMMAND_RESPONSE_TYPES,
  commandFinishedMessage,
  commandOutputLineMessage,
  readCommandResponse,
  WEB_UI_COMMAND_RESPONSE,
} from './command-responses.js';

const body = (value: unknown) => JSON.stringify(value);

describe('command responses on a machine queue (001 §3 Websocket message, §7)', () => {
  it('builds the output-line message: responseType and responsePayloadJson with commandId, commandOutputLine and its number', () => {
    const message = commandOutputLineMessage('req-1', 'ID        Time', 3);
    expect(message).toEqual({
      kind: WEB_UI_COMMAND_RESPONSE,
      responseType: COMMAND_RESPONSE_TYPES.outputLine,
      responsePayloadJson: expect.any(String),
    });
    expect(JSON.parse(message.responsePayloadJson)).toEqual({
      commandId: 'req-1',
      commandOutputLine: 'ID        Time',
      lineNumber: 3,
    });
  });

  it('builds the finished message with timeFinished and exitCode', () => {
    const message = commandFinishedMessage('req-1', new Date('2026-11-25T10:00:00.000Z'), 'SOME_FILES_NOT_ACCESSIBLE');
    expect(message.responseType).toBe(COMMAND_RESPONSE_TYPES.finished);
    expect(JSON.parse(message.responsePayloadJson)).toEqual({
      commandId: 'req-1',
      timeFinished: '2026-11-25T10:00:00.000Z',
      exitCode: 'SOME_FILES_NOT_ACCESSIBLE',
    });
  });

  it('reads back what it builds, whatever the line holds (quotes, JSON, the marker text itself)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string(), fc.nat(), (commandId, line, index) => {
        expect(readCommandResponse(body(commandOutputLineMessage(commandId, line, index + 1)))).toEqual({
          kind: 'outputLine',
          commandId,
          commandOutputLine: line,
          lineNumber: index + 1,
        });
      }),
    );
    expect(readCommandResponse(body(commandOutputLineMessage('c', WEB_UI_COMMAND_RESPONSE, 1)))).toMatchObject({
      kind: 'outputLine',
      commandOutputLine: WEB_UI_COMMAND_RESPONSE,
    });
    const finished = commandFinishedMessage('c', new Date('2026-11-25T10:00:00.000Z'), 'SUCCESS');
    expect(readCommandResponse(body(finished))).toEqual({
      kind: 'finished',
      commandId: 'c',
      timeFinished: '2026-11-25T10:00:00.000Z',
      exitCode: 'SUCCESS',
    });
  });

  it('passes a body without the marker through raw, unparsed (other traffic of the queue)', () => {
    const reply = body({ requestId: 'r', responsePayloadJson: '{"success":true}' });
    expect(readCommandResponse(reply)).toEqual({ kind: 'raw', body: reply });
    expect(readCommandResponse('not json at all')).toEqual({ kind: 'raw', body: 'not json at all' });
  });

  it('calls a marked body invalid when it is not JSON, has another type, or a payload of the wrong shape', () => {
    const marked = (responseType: string, payload: unknown) =>
      body({ kind: WEB_UI_COMMAND_RESPONSE, responseType, responsePayloadJson: JSON.stringify(payload) });
    for (const text of [
      `${WEB_UI_COMMAND_RESPONSE} {`,
      marked('SOMETHING_ELSE', { commandId: 'c', commandOutputLine: 'x', lineNumber: 1 }),
      marked(COMMAND_RESPONSE_TYPES.outputLine, { commandId: 'c', lineNumber: 1 }),
      marked(COMMAND_RESPONSE_TYPES.outputLine, { commandId: '', commandOutputLine: 'x', lineNumber: 1 }),
      marked(COMMAND_RESPONSE_TYPES.outputLine, { commandId: 'c', commandOutputLine: 'x' }),
      marked(COMMAND_RESPONSE_TYPES.outputLine, { commandId: 'c', commandOutputLine: 'x', lineNumber: 0 }),
      marked(COMMAND_RESPONSE_TYPES.outputLine, { commandId: 'c', commandOutputLine: 'x', lineNumber: 1.5 }),
      marked(COMMAND_RESPONSE_TYPES.finished, { commandId: 'c', timeFinished: 'yesterday', exitCode: 'SUCCESS' }),
      marked(COMMAND_RESPONSE_TYPES.finished, { commandId: 'c', timeFinished: '2026-11-25T10:00:00Z' }),
      body({
        kind: WEB_UI_COMMAND_RESPONSE,
        responseType: COMMAND_RESPONSE_TYPES.outputLine,
        responsePayloadJson: '{',
      }),
    ]) {
      expect(readCommandResponse(text)).toEqual({ kind: 'invalid', body: text });
    }
  });
});
