const fine: number = 1;
const broken: number = ;
return fine;
