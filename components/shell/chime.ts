"use client";

import { useCallback, useSyncExternalStore } from "react";

/**
 * The optional chime when one of the teller's tokens ends: off by default, remembered
 * per staff member on this browser (a counter PC is shared; the key carries the user id), and
 * played with Web Audio — two short tones, no sound file to fetch.
 */

const changedEvent = "veridesk:chime-preference";
const storageKey = (userId: string) => `veridesk:chime:${userId}`;

function subscribe(onChange: () => void): () => void {
  window.addEventListener(changedEvent, onChange);
  window.addEventListener("storage", onChange);
  return () => {
    window.removeEventListener(changedEvent, onChange);
    window.removeEventListener("storage", onChange);
  };
}

export function useChimePreference(userId: string): [isOn: boolean, setOn: (isOn: boolean) => void] {
  const isOn = useSyncExternalStore(
    subscribe,
    () => window.localStorage.getItem(storageKey(userId)) === "on",
    () => false,
  );
  const setOn = useCallback(
    (next: boolean) => {
      window.localStorage.setItem(storageKey(userId), next ? "on" : "off");
      window.dispatchEvent(new Event(changedEvent));
      // Turned on by a click: the browser lets this gesture start the audio for later chimes.
      if (next) void audioContext()?.resume();
    },
    [userId],
  );
  return [isOn, setOn];
}

let context: AudioContext | null | undefined;

function audioContext(): AudioContext | null {
  if (context === undefined) context = typeof AudioContext === "function" ? new AudioContext() : null;
  return context;
}

/**
 * After a reload the browser keeps audio suspended until the page is touched: the first click or
 * key press anywhere resumes it, so the next chime is heard.
 */
export function resumeAudioOnFirstGesture(): () => void {
  const resume = () => void audioContext()?.resume();
  window.addEventListener("pointerdown", resume, { once: true });
  window.addEventListener("keydown", resume, { once: true });
  return () => {
    window.removeEventListener("pointerdown", resume);
    window.removeEventListener("keydown", resume);
  };
}

export function playChime(): void {
  const audio = audioContext();
  if (!audio) return;
  const start = audio.currentTime + 0.02;
  for (const [index, frequency] of [880, 1318.5].entries()) {
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.type = "sine";
    oscillator.frequency.value = frequency;
    const at = start + index * 0.18;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.16);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start(at);
    oscillator.stop(at + 0.17);
  }
}
