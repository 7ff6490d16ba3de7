// The original study's experiments as Lab presets. Pure data: the Lab runs them, and a browser
// test checks each against `queens experiment` with the same settings.

const SEVEN = "random-search,optimized-random-search,simulated-annealing,hill-climbing,hill-climbing-constant-shake,hill-climbing-decaying-shake,optimized-hill-climbing";

/**
 * The original study's experiments, exactly: each is one or more experiments (parts) run one
 * after another, their rows in one table, with what the original reported beside ours (and,
 * for the question it left open, our answer).
 */
export const PRESETS = [
  {
    id: "comparison",
    name: "The original comparison",
    title: "The seven algorithms of the original at N = 4 to 32, 1,000 runs a cell, 1,000 iterations a run",
    original: "The original's comparison: 1,000 runs a cell, 1,000 iterations a run; it reports optimized hill climbing above 97 % at N = 32 and constant shakes (p = 0.23, q = 2) unfinished at N = 32.",
    parts: [{ solvers: SEVEN, sizes: "4,8,16,24,32", runs: "1000", seed: "1" }],
  },
  {
    id: "p-q",
    name: "p × q study",
    title: "Hill climbing with constant shakes at N = 16: shake probability p against queens shaken q",
    original: "The original's last grid: N = 16, p from 0.06 to 0.28, q from 16 × 0.125 = 2 to 16 × 0.45 = 7, at most 700 iterations (its cells were 20 runs each; here 1,000); it found q = 2 best and chose p = 0.23.",
    parts: [{ solvers: "hill-climbing-constant-shake", sizes: "16", runs: "1000", seed: "1", max_iters: "700", "sweep.p": "0.06,0.1,0.14,0.18,0.23,0.28", "sweep.q": "1,2,3,4,5,6,7" }],
  },
  {
    id: "q-study",
    name: "Q study",
    title: "Optimized hill climbing: queens moved when stuck (q) at each N, with the original's MaxIterations per N",
    original: "The original's runs: N = 4, 1,000 runs, MaxIterations 15, 18, 20; N = 8, 500 runs, 65, 70, 75; N = 16, 500 runs, 250 to 400; N = 24, 50 runs, 300 to 500. It found Q = 4 ahead of Q = 3 each time, the gap narrowing as N grew.",
    parts: [
      { solvers: "optimized-hill-climbing", sizes: "4", runs: "1000", seed: "1", "sweep.max_iters": "15,18,20", "sweep.q": "1,2,3,4" },
      { solvers: "optimized-hill-climbing", sizes: "8", runs: "500", seed: "1", "sweep.max_iters": "65,70,75", "sweep.q": "1,2,3,4,5,6,7,8" },
      { solvers: "optimized-hill-climbing", sizes: "16", runs: "500", seed: "1", "sweep.max_iters": "250,300,350,400", "sweep.q": "1,2,3,4,5,6,7,8" },
      { solvers: "optimized-hill-climbing", sizes: "24", runs: "50", seed: "1", "sweep.max_iters": "300,400,450,500", "sweep.q": "1,2,3,4,5,6,7,8" },
    ],
  },
  {
    id: "open-question",
    name: "The open question: Q = 3 or Q = 4 at large N?",
    title: "Optimized hill climbing with q = 3 against q = 4 at N = 32 to 256, 500 runs a cell",
    original: "The original left it open: Q = 4 won at every N it tried (up to 24), by less as N grew, 'pointing towards a possible hypothesis that Q = 3 might become the better option in huge N'.",
    answer: "Our answer, from 4,000 runs a cell (queens experiment 32,64,128,256 --solver optimized-hill-climbing --set q=3,4 --runs 4000): neither wins. q = 3 against q = 4 solved 98.2 % and 98.1 % at N = 32, 91.2 % and 91.4 % at 64, 79.5 % and 77.6 % at 128, 64.5 % and 63.8 % at 256, every pair within the other's 95 % interval but at N = 128 (p = 0.047, one test of four). The cap of 1,000 iterations, not Q, decides success at large N.",
    parts: [{ solvers: "optimized-hill-climbing", sizes: "32,64,128,256", runs: "500", seed: "1", "sweep.q": "3,4" }],
  },
];
