package io.refstore.core.repo;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A second process for {@link StoreGateTest}: obeys one command a line on its standard
 * input and answers each on its standard output. {@code swap MILLIS} closes the gate of
 * the common directory given as its argument (answers {@code closed} or {@code busy}),
 * {@code switch} advances the generation, {@code open} opens the gate again, {@code enter
 * MILLIS} passes it as a writer ({@code entered} or {@code busy}), {@code leave} ends
 * that pass; {@code run MILLIS} begins a bulk run ({@code begun} or {@code busy}),
 * {@code chunk MILLIS} closes the gate for one of its chunks ({@code closed} or
 * {@code busy}), {@code unchunk} opens it again and {@code end} ends the run.
 */
public final class GateHolderMain {

	private GateHolderMain() {
	}

	public static void main(String[] args) throws Exception {
		StoreGate gate = StoreGate.of(Path.of(args[0]));
		StoreGate.Swap swap = null;
		StoreGate.Pass pass = null;
		StoreGate.Run run = null;
		StoreGate.Pass chunk = null;
		BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		for (String line; (line = in.readLine()) != null;) {
			String[] words = line.split(" ");
			try {
				switch (words[0]) {
					case "swap" -> swap = gate.closeForSwap(Duration.ofMillis(Long.parseLong(words[1])));
					case "switch" -> swap.switched();
					case "open" -> swap.close();
					case "enter" -> pass = gate.enter(gate.generation(), Duration.ofMillis(Long.parseLong(words[1])));
					case "leave" -> pass.close();
					case "run" -> run = gate.beginRun(Duration.ofMillis(Long.parseLong(words[1])));
					case "chunk" -> chunk = gate.closeForChunk(Duration.ofMillis(Long.parseLong(words[1])));
					case "unchunk" -> chunk.close();
					case "end" -> run.close();
					default -> throw new IllegalArgumentException(line);
				}
				System.out.println(switch (words[0]) {
					case "swap", "chunk" -> "closed";
					case "run" -> "begun";
					case "enter" -> "entered";
					default -> "done";
				});
			}
			catch (StoreBusyException ex) {
				System.out.println("busy");
			}
			System.out.flush();
		}
	}

}
