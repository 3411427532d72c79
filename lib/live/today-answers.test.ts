import { afterEach, describe, expect, it, vi } from "vitest";
import type { TodayTokensResponse } from "./dto";
import { forgetTodayAnswers, listenToTodayAnswers, publishTodayAnswer, screenPollStarted, watchScreenPolls } from "./today-answers";

const answer = (version: string): TodayTokensResponse => ({ serverNow: "2026-12-03T10:00:00.000Z", version, branchName: "Kumasi", tokens: [] });

afterEach(() => forgetTodayAnswers());

describe("today's answers in the tab", () => {
  it("reach every listener, and a late listener starts with the latest one", () => {
    const early = vi.fn();
    const stopEarly = listenToTodayAnswers(early);
    publishTodayAnswer(answer("v1"));
    publishTodayAnswer(answer("v2"));
    const late = vi.fn();
    const stopLate = listenToTodayAnswers(late);
    expect(early.mock.calls.map(([seen]) => (seen as TodayTokensResponse).version)).toEqual(["v1", "v2"]);
    expect(late.mock.calls.map(([seen]) => (seen as TodayTokensResponse).version)).toEqual(["v2"]);
    stopEarly();
    publishTodayAnswer(answer("v3"));
    expect(early).toHaveBeenCalledTimes(2);
    expect(late).toHaveBeenCalledTimes(2);
    stopLate();
  });

  it("are forgotten when the shell is left: a listener after that gets nothing old", () => {
    publishTodayAnswer(answer("v1"));
    forgetTodayAnswers();
    const listener = vi.fn();
    const stop = listenToTodayAnswers(listener);
    expect(listener).not.toHaveBeenCalled();
    stop();
  });
});

describe("the screens that poll today's list", () => {
  it("are counted: the watcher hears of the first start and the last end only, and an end counts once", () => {
    const heard: boolean[] = [];
    const stopWatching = watchScreenPolls((isScreenPolling) => heard.push(isScreenPolling));
    const endDashboard = screenPollStarted();
    const endList = screenPollStarted();
    endDashboard();
    endDashboard();
    expect(heard).toEqual([false, true]);
    endList();
    expect(heard).toEqual([false, true, false]);
    stopWatching();
  });
});
