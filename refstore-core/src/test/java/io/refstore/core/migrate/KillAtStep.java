package io.refstore.core.migrate;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.sun.jdi.Bootstrap;
import com.sun.jdi.IncompatibleThreadStateException;
import com.sun.jdi.Location;
import com.sun.jdi.Method;
import com.sun.jdi.ReferenceType;
import com.sun.jdi.VMDisconnectedException;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.connect.Connector;
import com.sun.jdi.connect.IllegalConnectorArgumentsException;
import com.sun.jdi.connect.ListeningConnector;
import com.sun.jdi.event.BreakpointEvent;
import com.sun.jdi.event.ClassPrepareEvent;
import com.sun.jdi.event.Event;
import com.sun.jdi.event.EventSet;
import com.sun.jdi.event.VMDeathEvent;
import com.sun.jdi.event.VMDisconnectEvent;
import com.sun.jdi.request.BreakpointRequest;
import com.sun.jdi.request.ClassPrepareRequest;
import com.sun.jdi.request.EventRequest;

import io.refstore.core.testing.GitCli;

/**
 * Kills a real {@code refstore} command with SIGKILL at one chosen step, every time: the
 * command runs in a process of its own under the JVM's debugger agent, which stops every
 * thread of it when it enters a chosen method (called from a chosen caller, the n-th
 * time), and the process is killed while it stands there. Where {@link MigrationKillIT}
 * kills at random moments and finds out where each kill landed, this lands a kill on a
 * step named in advance; nothing of the command is replaced or mocked, it only never
 * returns from that call.
 */
final class KillAtStep {

	/** How long a command may take to reach its step. */
	private static final long TIMEOUT_MILLIS = TimeUnit.MINUTES.toMillis(2);

	private final String className;

	private final String method;

	private final String callerClass;

	private final String callerMethod;

	private final int hit;

	private KillAtStep(String className, String method, String callerClass, String callerMethod, int hit) {
		this.className = className;
		this.method = method;
		this.callerClass = callerClass;
		this.callerMethod = callerMethod;
		this.hit = hit;
	}

	/**
	 * The entry of every method called {@code method} of {@code type} (any overload), the
	 * first time.
	 */
	static KillAtStep entering(Class<?> type, String method) {
		return new KillAtStep(type.getName(), method, null, null, 1);
	}

	/**
	 * This step, counted only when called straight from {@code method} of {@code type}.
	 */
	KillAtStep calledFrom(Class<?> type, String method) {
		return new KillAtStep(this.className, this.method, type.getName(), method, this.hit);
	}

	/** This step, the {@code n}-th time it is reached (1 is the first). */
	KillAtStep time(int n) {
		return new KillAtStep(this.className, this.method, this.callerClass, this.callerMethod, n);
	}

	/**
	 * Runs {@code refstore refs <args>} in {@code dir} up to this step and kills it there
	 * (SIGKILL), returning once the process is gone.
	 * @throws AssertionError if the command ends, or takes two minutes, without reaching
	 * the step (with what it wrote to standard error)
	 */
	void kill(Path dir, Path stderr, String... args) throws IOException, InterruptedException {
		ListeningConnector connector = (ListeningConnector) Bootstrap.virtualMachineManager()
			.listeningConnectors()
			.stream()
			.filter((candidate) -> candidate.name().equals("com.sun.jdi.SocketListen"))
			.findFirst()
			.orElseThrow();
		Map<String, Connector.Argument> arguments = connector.defaultArguments();
		arguments.get("localAddress").setValue("127.0.0.1");
		arguments.get("port").setValue("0");
		arguments.get("timeout").setValue(Long.toString(TIMEOUT_MILLIS));
		Process process;
		VirtualMachine vm;
		try {
			String address = connector.startListening(arguments);
			try {
				process = start(dir, stderr, address, args);
				vm = connector.accept(arguments);
			}
			finally {
				connector.stopListening(arguments);
			}
		}
		catch (IllegalConnectorArgumentsException ex) {
			throw new IllegalStateException(ex);
		}
		try {
			if (!stopAtStep(vm)) {
				process.waitFor(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
				throw new AssertionError("refstore refs " + String.join(" ", args) + " ended without reaching " + this
						+ ": " + Files.readString(stderr));
			}
		}
		finally {
			// every thread stands still: nothing more of the command happens before the
			// kill
			process.destroyForcibly();
			process.waitFor(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
			try {
				vm.dispose();
			}
			catch (VMDisconnectedException ex) {
				// the process is gone: nothing to let go of
			}
		}
	}

	private static Process start(Path dir, Path stderr, String address, String... args) throws IOException {
		List<String> command = new ArrayList<>(GitCli.refstore().command());
		command.add(1, "-agentlib:jdwp=transport=dt_socket,server=n,suspend=y,address=" + address);
		command.add("refs");
		command.addAll(List.of(args));
		ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
			.redirectOutput(Redirect.DISCARD)
			.redirectError(stderr.toFile());
		builder.environment().putAll(GitCli.refstore().environment());
		return builder.start();
	}

	/**
	 * Lets the command run until it reaches this step, where every thread stays stopped.
	 * @return whether it did; {@code false} if it ended first
	 */
	private boolean stopAtStep(VirtualMachine vm) throws InterruptedException {
		ClassPrepareRequest prepare = vm.eventRequestManager().createClassPrepareRequest();
		prepare.addClassFilter(this.className);
		prepare.setSuspendPolicy(EventRequest.SUSPEND_ALL);
		prepare.enable();
		for (ReferenceType loaded : vm.classesByName(this.className)) {
			breakIn(vm, loaded);
		}
		vm.resume();
		int reached = 0;
		long deadline = System.currentTimeMillis() + TIMEOUT_MILLIS;
		while (true) {
			long left = deadline - System.currentTimeMillis();
			if (left <= 0) {
				throw new AssertionError("the command did not reach " + this + " in two minutes");
			}
			EventSet events = vm.eventQueue().remove(left);
			if (events == null) {
				continue;
			}
			for (Event event : events) {
				if (event instanceof VMDeathEvent || event instanceof VMDisconnectEvent) {
					return false;
				}
				if (event instanceof ClassPrepareEvent prepared) {
					breakIn(vm, prepared.referenceType());
				}
				if (event instanceof BreakpointEvent breakpoint && calledFromCaller(breakpoint)) {
					reached++;
					if (reached == this.hit) {
						return true;
					}
				}
			}
			events.resume();
		}
	}

	private void breakIn(VirtualMachine vm, ReferenceType type) {
		List<Method> methods = type.methodsByName(this.method);
		if (methods.isEmpty()) {
			throw new IllegalStateException(this.className + " has no method " + this.method);
		}
		for (Method found : methods) {
			Location entry = found.location();
			if (entry == null) {
				// abstract
				continue;
			}
			BreakpointRequest request = vm.eventRequestManager().createBreakpointRequest(entry);
			request.setSuspendPolicy(EventRequest.SUSPEND_ALL);
			request.enable();
		}
	}

	private boolean calledFromCaller(BreakpointEvent event) {
		if (this.callerClass == null) {
			return true;
		}
		try {
			Location caller = event.thread().frame(1).location();
			return caller.declaringType().name().equals(this.callerClass)
					&& caller.method().name().equals(this.callerMethod);
		}
		catch (IncompatibleThreadStateException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Override
	public String toString() {
		String step = this.className.substring(this.className.lastIndexOf('.') + 1) + "." + this.method;
		if (this.callerClass != null) {
			step += " called from " + this.callerClass.substring(this.callerClass.lastIndexOf('.') + 1) + "."
					+ this.callerMethod;
		}
		return step + ((this.hit > 1) ? " (time " + this.hit + ")" : "");
	}

}
