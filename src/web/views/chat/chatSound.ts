// A short tone for a new chat line (the playChatSounds preference), made with Web Audio so no
// sound file is loaded.

let audio: AudioContext | null = null;

export function playChatTone(): void {
  if (typeof AudioContext === 'undefined') return;
  audio ??= new AudioContext();
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.frequency.value = 880;
  gain.gain.setValueAtTime(0.08, audio.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.15);
  osc.connect(gain).connect(audio.destination);
  osc.start();
  osc.stop(audio.currentTime + 0.15);
}
