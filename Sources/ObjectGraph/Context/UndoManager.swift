import Dispatch
import Foundation

/// Records undo actions in groups and replays them, as Foundation's `UndoManager` — which
/// Foundation on Linux does not have. Give one to a context (``ManagedObjectContext/undoManager``)
/// and its changes become undoable, as in Core Data:
///
/// ```swift
/// context.undoManager = UndoManager()
/// photo.title = "Hoover Tower"
/// context.undoManager?.undo()   // the title is back
/// context.undoManager?.redo()   // and changed again
/// ```
///
/// Actions registered while no group is open go into a group opened for them
/// (``groupsByEvent``); it closes at ``undo()``, at an explicit ``endUndoGrouping()``, or — when
/// it was opened on the main queue — once the main queue's current turn ends, as Foundation's
/// closes its group at the end of a run-loop pass. Off the main queue, a group opened for an
/// event stays open until ``undo()``: open and close groups yourself there. Not thread-safe: use it on one thread or
/// queue (the main one, for a main-queue context).
public final class UndoManager {
    /// One undoable step: its actions, newest last.
    private struct Group {
        var actions: [Action] = []
        var name = ""
    }

    /// An action of a group: a handler, or a nested group.
    private enum Action {
        case handler(target: ObjectIdentifier, run: () -> Void)
        case nested(Group)
    }

    private var undoStack: [Group] = []
    private var redoStack: [Group] = []
    /// The open groups, innermost last.
    private var openGroups: [Group] = []
    /// Whether the outermost open group was opened by a registration (``groupsByEvent``).
    private var openedForEvent = false
    /// Bumped whenever a group opened for an event closes, so a scheduled close of an older one
    /// does nothing.
    private var eventGeneration = 0
    private var registrationDisabled = 0
    /// Called before the manager closes a group, undoes or redoes: contexts process their
    /// pending changes there, so the actions for them are registered first (Foundation posts
    /// its checkpoint notification at the same moments).
    private var checkpointHandlers: [(owner: ObjectIdentifier, handler: () -> Void)] = []

    /// Whether registering an action with no group open opens one (`true`, the default).
    public var groupsByEvent = true
    /// How many groups the undo stack keeps; 0 (the default) keeps every one.
    public var levelsOfUndo = 0 {
        didSet { trim() }
    }
    /// Whether ``undo()`` is running.
    public private(set) var isUndoing = false
    /// Whether ``redo()`` is running.
    public private(set) var isRedoing = false

    /// A manager with empty stacks.
    public init() {}

    /// How many groups are open.
    public var groupingLevel: Int { openGroups.count }
    /// Whether there is a group to undo (an open group with actions counts).
    public var canUndo: Bool { !undoStack.isEmpty || openGroups.first.map { !$0.actions.isEmpty } ?? false }
    /// Whether there is a group to redo.
    public var canRedo: Bool { !redoStack.isEmpty }
    /// Whether actions are registered (see ``disableUndoRegistration()``).
    public var isUndoRegistrationEnabled: Bool { registrationDisabled == 0 }
    /// The name of the group ``undo()`` would undo.
    public var undoActionName: String { undoStack.last?.name ?? "" }
    /// The name of the group ``redo()`` would redo.
    public var redoActionName: String { redoStack.last?.name ?? "" }

    /// Names the innermost open group (or, with none open, the last one closed).
    public func setActionName(_ actionName: String) {
        if !openGroups.isEmpty {
            openGroups[openGroups.count - 1].name = actionName
        } else if isUndoing, !redoStack.isEmpty {
            redoStack[redoStack.count - 1].name = actionName
        } else if !undoStack.isEmpty {
            undoStack[undoStack.count - 1].name = actionName
        }
    }

    /// Stops registering actions until as many ``enableUndoRegistration()`` calls.
    public func disableUndoRegistration() { registrationDisabled += 1 }

    /// Registers actions again (see ``disableUndoRegistration()``).
    public func enableUndoRegistration() {
        precondition(registrationDisabled > 0, "UndoManager: enableUndoRegistration() without disableUndoRegistration()")
        registrationDisabled -= 1
    }

    /// Opens a group: the actions registered until ``endUndoGrouping()`` undo as one.
    public func beginUndoGrouping() {
        if openGroups.isEmpty { openedForEvent = false }
        openGroups.append(Group())
    }

    /// Closes the innermost group; an outermost group with actions becomes the newest one to
    /// undo (or, while undoing, to redo).
    public func endUndoGrouping() {
        precondition(!openGroups.isEmpty, "UndoManager: endUndoGrouping() with no group open")
        if openGroups.count == 1 { checkpoint() }
        let group = openGroups.removeLast()
        if !openGroups.isEmpty {
            if !group.actions.isEmpty { openGroups[openGroups.count - 1].actions.append(.nested(group)) }
            return
        }
        if openedForEvent {
            openedForEvent = false
            eventGeneration += 1
        }
        guard !group.actions.isEmpty else { return }
        if isUndoing {
            redoStack.append(group)
        } else {
            undoStack.append(group)
            trim()
        }
    }

    /// Registers `handler` to run on `target` when the current group is undone (or, while
    /// undoing, redone). Registering outside undo and redo clears the redo stack. With no
    /// group open and ``groupsByEvent`` off, the action is a group of its own (Foundation
    /// raises an exception instead).
    public func registerUndo<Target: AnyObject>(withTarget target: Target, handler: @escaping (Target) -> Void) {
        guard isUndoRegistrationEnabled else { return }
        if !isUndoing && !isRedoing { redoStack.removeAll() }
        let action = Action.handler(target: ObjectIdentifier(target), run: { handler(target) })
        guard !openGroups.isEmpty || groupsByEvent else {
            // Foundation raises here; a context saving with no group open would trap. The
            // action becomes a group of its own instead.
            undoStack.append(Group(actions: [action]))
            trim()
            return
        }
        if openGroups.isEmpty { openGroupForEvent() }
        openGroups[openGroups.count - 1].actions.append(action)
    }

    /// Undoes the newest group (closing a group opened for the current event first), registering
    /// what redoes it.
    public func undo() {
        if openGroups.count == 1 && openedForEvent { endUndoGrouping() }
        precondition(openGroups.isEmpty, "UndoManager: undo() with a group open; close it with endUndoGrouping() first")
        undoNestedGroup()
    }

    /// Undoes the newest group, as ``undo()``, without closing an open group first.
    public func undoNestedGroup() {
        checkpoint()
        guard let group = undoStack.popLast() else { return }
        isUndoing = true
        defer { isUndoing = false }
        run(group)
    }

    /// Redoes the newest undone group, registering what undoes it again.
    public func redo() {
        if openGroups.count == 1 && openedForEvent { endUndoGrouping() }
        precondition(openGroups.isEmpty, "UndoManager: redo() with a group open")
        checkpoint()
        guard let group = redoStack.popLast() else { return }
        isRedoing = true
        defer { isRedoing = false }
        run(group)
    }

    /// Forgets every group, to undo and to redo.
    public func removeAllActions() {
        undoStack.removeAll()
        redoStack.removeAll()
        for index in openGroups.indices { openGroups[index].actions.removeAll() }
    }

    /// Forgets every action registered with `target`.
    public func removeAllActions(withTarget target: AnyObject) {
        let id = ObjectIdentifier(target)
        undoStack = undoStack.compactMap { Self.removing(id, from: $0) }
        redoStack = redoStack.compactMap { Self.removing(id, from: $0) }
        for index in openGroups.indices { openGroups[index] = Self.removing(id, from: openGroups[index]) ?? Group(name: openGroups[index].name) }
    }

    // MARK: Internals

    /// Runs `group`'s actions newest first, in a group of their own that collects their
    /// inverses.
    private func run(_ group: Group) {
        openGroups.append(Group(name: group.name))
        openedForEvent = false
        for action in group.actions.reversed() { perform(action) }
        let inverse = openGroups.removeLast()
        guard !inverse.actions.isEmpty else { return }
        if isUndoing { redoStack.append(inverse) } else { undoStack.append(inverse) }
        trim()
    }

    private func perform(_ action: Action) {
        switch action {
        case .handler(_, let run): run()
        case .nested(let group): for action in group.actions.reversed() { perform(action) }
        }
    }

    private static func removing(_ target: ObjectIdentifier, from group: Group) -> Group? {
        var kept = Group(name: group.name)
        for action in group.actions {
            switch action {
            case .handler(let owner, _): if owner != target { kept.actions.append(action) }
            case .nested(let nested): if let nested = removing(target, from: nested) { kept.actions.append(.nested(nested)) }
            }
        }
        return kept.actions.isEmpty ? nil : kept
    }

    /// Opens a group for the actions of the current event; on the main queue, it closes when
    /// the main queue's current turn is over.
    private func openGroupForEvent() {
        openGroups.append(Group())
        openedForEvent = true
        eventGeneration += 1
        guard ContextQueue.isMainQueue else { return }
        let generation = eventGeneration
        let manager = UncheckedManager(manager: self)
        DispatchQueue.main.async { manager.manager.closeEventGroup(generation) }
    }

    /// On the main queue with ``groupsByEvent`` on and no group open, opens the group of the
    /// current event, to close (with a checkpoint) when the main queue's current turn is over:
    /// a context calls it at the first change of a step, so that each turn's changes are one
    /// group even when the context registers them only later.
    func beginEventGroupIfNeeded() {
        guard groupsByEvent, openGroups.isEmpty, !isUndoing, !isRedoing, ContextQueue.isMainQueue else { return }
        openGroupForEvent()
    }

    /// Closes the group opened for an event, if it is still the one opened at `generation`.
    private func closeEventGroup(_ generation: Int) {
        guard openedForEvent, eventGeneration == generation, openGroups.count == 1 else { return }
        endUndoGrouping()
    }

    private func trim() {
        if levelsOfUndo > 0, undoStack.count > levelsOfUndo { undoStack.removeFirst(undoStack.count - levelsOfUndo) }
    }

    // MARK: Checkpoints

    /// Runs `handler` at every checkpoint until ``removeCheckpointHandler(owner:)``.
    func addCheckpointHandler(owner: AnyObject, _ handler: @escaping () -> Void) {
        checkpointHandlers.append((ObjectIdentifier(owner), handler))
    }

    /// Stops running `owner`'s checkpoint handlers.
    func removeCheckpointHandler(owner: AnyObject) {
        let id = ObjectIdentifier(owner)
        checkpointHandlers.removeAll { $0.owner == id }
    }

    private func checkpoint() {
        for (_, handler) in checkpointHandlers { handler() }
    }
}

/// Carries a manager into the main-queue block that closes its event's group; the manager was
/// made for, and is used on, the main queue.
private struct UncheckedManager: @unchecked Sendable {
    // @unchecked Sendable: the block runs on the main queue, where the manager is used.
    let manager: UndoManager
}
