/**
 * vc's recording permission (the web client's "ask the host to record"): a participant in the call asks,
 * the meeting's policy answers at once or the host does later (and may revoke). Rules over the meeting's
 * state (meeting-state.ts), no I/O.
 */
import { log, notEnded, participant, SandboxError, type Meeting, type Participant } from './meeting-state';

/** vc: the participant asks the host for recording permission; the meeting's policy may answer at once. */
export function requestRecording(meeting: Meeting, participantId: string, now: number): Participant {
  const p = participant(meeting, participantId);
  notEnded(meeting);
  if (meeting.platform !== 'vc') throw new SandboxError(400, 'recording permission requests exist on vc only');
  if (p.state !== 'in_call') throw new SandboxError(409, `only a participant in the call can ask to record (state: ${p.state})`);
  if (p.recording_permission === 'granted' || p.recording_permission === 'pending') return p;
  log(meeting, now, 'recording_requested', participantId);
  if (meeting.recording_policy === 'ask') {
    p.recording_permission = 'pending';
  } else {
    p.recording_permission = meeting.recording_policy === 'grant' ? 'granted' : 'denied';
    log(meeting, now, `recording_${p.recording_permission}`, participantId, 'by policy');
  }
  return p;
}

/** vc: the host grants or refuses (or later revokes) recording permission. */
export function answerRecording(meeting: Meeting, participantId: string, grant: boolean, now: number): Participant {
  const p = participant(meeting, participantId);
  notEnded(meeting);
  if (meeting.platform !== 'vc') throw new SandboxError(400, 'recording permission exists on vc only');
  if (p.state !== 'in_call') throw new SandboxError(409, `the participant is not in the call (state: ${p.state})`);
  p.recording_permission = grant ? 'granted' : 'denied';
  log(meeting, now, `recording_${p.recording_permission}`, participantId, 'by host');
  return p;
}
