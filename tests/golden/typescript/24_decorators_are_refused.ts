function logged(target: unknown) { return target; }
@logged
class Service {}
return typeof Service;
